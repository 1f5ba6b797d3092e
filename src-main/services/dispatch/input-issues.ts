import type { z } from 'zod';

/**
 * A refused input described in plain words. Zod's own messages ("Invalid input: expected string,
 * received number", "Too small: expected array to have >=1 items") are parser text, for no one;
 * and a path or key echoed from the input is cut short and stripped of control characters, so a
 * hostile field name cannot fill or garble the message.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map((p) => shown(String(p))).join('.') || 'input'}: ${said(issue)}`)
    .join('; ');
}

function shown(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

const NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

function size(origin: unknown, n: unknown): string {
  if (origin === 'string') return `${String(n)} characters`;
  if (origin === 'array' || origin === 'set') return `${String(n)} items`;
  return String(n);
}

function said(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // The input is there when the parse was asked to report it (the dispatcher does).
      return 'input' in issue && issue.input === undefined
        ? 'is missing'
        : `should be ${NOUNS[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return issue.inclusive === false
        ? `should be more than ${size(issue.origin, issue.minimum)}`
        : `should be at least ${size(issue.origin, issue.minimum)}`;
    case 'too_big':
      return issue.inclusive === false
        ? `should be less than ${size(issue.origin, issue.maximum)}`
        : `should be at most ${size(issue.origin, issue.maximum)}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'is not a valid link' : 'is not in the expected form';
    case 'unrecognized_keys':
      return `has fields it does not take (${issue.keys.slice(0, 3).map(shown).join(', ')})`;
    case 'invalid_value':
      return issue.values.length <= 8
        ? `should be one of ${issue.values.map((v) => shown(String(v))).join(', ')}`
        : 'is not one of the accepted values';
    case 'invalid_union':
      return 'is not any of the accepted forms';
    case 'not_multiple_of':
      return `should be a multiple of ${String(issue.divisor)}`;
    // The studio's own refinements carry sentences written for people.
    case 'custom':
      return issue.message === 'Invalid input' ? 'is not valid' : issue.message;
    default:
      return 'is not valid';
  }
}
