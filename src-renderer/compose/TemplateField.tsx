/**
 * The template line of the template and Find parts dialogs: `A {subject} on {surface}`, with its
 * help below. One field, so both dialogs read and behave alike.
 */
export function TemplateField({
  label,
  help,
  value,
  onChange,
  placeholder,
  testId,
}: {
  label: string;
  help: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  testId: string;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        data-testid={testId}
      />
      <span className="help">{help}</span>
    </label>
  );
}
