// Ingest answers in the one error body every Warden API shares (shared/src/http/errors.ts).
export * from '@warden/shared/http/errors';
