import { enAtStart, type Messages } from './en';

/** The names in one group of messages: `status` gives 'queued' | 'running' | …. */
export type MessageName<G extends keyof Messages> = Extract<keyof Messages[G], string>;

/** Groups the window has from its start (not the Library's, which come with its chunk). */
type StartGroup = keyof typeof enAtStart;

/**
 * Whether `name`, a value known only at run time (a server status, an error code), names a message
 * of `group`, so that `t(`${group}.${name}`)` is a real key. Narrowing the value is what lets such a
 * key type-check without a cast. Every language has English's keys (zh-CN.ts is typed so), so
 * English answers for all of them.
 */
export function isMessageName<G extends StartGroup>(group: G, name: string): name is MessageName<G> {
  return Object.hasOwn(enAtStart[group], name);
}

/** The same for a whole dotted key built at run time, such as `errors.<code>_<status>`. */
export function isMessageKey<G extends StartGroup>(group: G, key: string): key is `${G}.${MessageName<G>}` {
  return key.startsWith(`${group}.`) && isMessageName(group, key.slice(group.length + 1));
}
