/** Saves text as a file through a temporary object URL (no server round trip). */
export function downloadText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

export function formatBytes(bytes: number): string {
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB` : `${bytes} bytes`;
}

/** The local size check of a long text field: a message naming the limit, or null. */
export function sizeProblem(text: string, limit: { bytes?: number; characters?: number } | null): string | null {
  if (!limit) return null;
  if (limit.bytes !== undefined) {
    const bytes = utf8Bytes(text);
    if (bytes > limit.bytes)
      return `is ${formatBytes(bytes)}; the limit is ${formatBytes(limit.bytes)} (${limit.bytes} bytes)`;
  }
  if (limit.characters !== undefined && text.length > limit.characters) {
    return `is ${text.length} characters; the limit is ${limit.characters} characters`;
  }
  return null;
}
