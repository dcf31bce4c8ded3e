// A byte count for people: `5 GiB`, `1.5 MiB`, `512 bytes` (binary units, at most two decimals).

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** `bytes` (a non-negative count) in GiB or MiB from one unit up, else in bytes. */
export function byteText(bytes: number): string {
  if (bytes >= GiB) return `${Number((bytes / GiB).toFixed(2))} GiB`;
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(2))} MiB`;
  return `${bytes} bytes`;
}
