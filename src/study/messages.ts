// Every user-facing sentence of the study layer.

export const studyMessages = {
  lockUnreadable: (source: string, detail: string) =>
    `The study lock ${source} is not valid JSON (${detail}); restore it from version control or write a new one with "rdw lock".`,
  lockInvalid: (source: string, detail: string) =>
    `The study lock ${source} is malformed: ${detail}. Restore it from version control or write a new one with "rdw lock".`,
  lockTooNew: (source: string, version: number, supported: number) =>
    `The study lock ${source} has lockVersion ${version}, but this rdw reads up to ${supported}; upgrade rdw to a version that supports lockVersion ${version}.`,
  lockEmpty: () => 'A study lock needs at least one release; name release IDs or use --latest N.',
  notInCatalog: (id: string) =>
    `Release ${id} is not in the local catalog; pull it first with "rdw pull ${id}" or lock only imported releases.`,
  lockMismatch: (id: string, what: string, locked: string, found: string) =>
    `Release ${id} does not match the lock: ${what} is ${found}, the lock says ${locked}. The analysis would not reproduce; nothing was changed.`,
  storedFileDiffers: (id: string, format: string, locked: string, found: string) =>
    `The stored ${format} file of release ${id} hashes to ${found}, the lock says ${locked}; run "rdw verify" and pull the release again.`,
};
