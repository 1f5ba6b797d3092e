/**
 * Stands in for the model that `qa` mode asks to split material into question-answer pairs:
 * paragraphs become pairs, each answer being the paragraph and each question made from its
 * first sentence. Deterministic, so tests know what a push inserts.
 */
export function splitIntoPairs(material: string): { q: string; a: string }[] {
  const paragraphs = material
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0);
  return paragraphs.map((paragraph) => {
    const first = (/^(.+?[.!?。！？])(\s|$)/u.exec(paragraph)?.[1] ?? paragraph).trim();
    const topic = first.replace(/[.!?。！？]+$/u, '');
    const chinese = /[\u3400-\u9fff]/.test(topic);
    return { q: chinese ? `关于「${topic}」？` : `What about: ${topic}?`, a: paragraph };
  });
}
