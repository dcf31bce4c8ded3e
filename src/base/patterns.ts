// Text patterns several layers check: a `YYYY-MM-DD` day and a lowercase hex SHA-256 digest. What a valid
// release day or release ID means is the contract's (isReleaseDay, isReleaseId); these are only the shapes.

/** `YYYY-MM-DD` (shape only, not a calendar check); groups 1-3 are year, month and day. */
export const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A SHA-256 digest as 64 lowercase hex characters. */
export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;
