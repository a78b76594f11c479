-- Idempotent deposits (docs/formats/common.md "Idempotent deposits"): the Idempotency-Key of a deposit,
-- per account (issuer = dpa, user_id = dpr), written in the same transaction as the credit. fingerprint
-- is the SHA-256 (hex) of the canonical request (amount and mode); balance is the answer to replay.
-- Rows older than spiffeidt.account.idempotency-retention are deleted on write; created_at is indexed
-- for that. The repository keeps issuer + user_id + idem_key within PostgreSQL's B-tree entry limit.
CREATE TABLE idempotency_key (
    issuer      VARCHAR(512)             NOT NULL,
    user_id     VARCHAR(2048)            NOT NULL,
    idem_key    VARCHAR(255)             NOT NULL,
    fingerprint CHAR(64)                 NOT NULL,
    balance     BIGINT                   NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT idempotency_key_pk PRIMARY KEY (issuer, user_id, idem_key)
);
CREATE INDEX idempotency_key_created_at ON idempotency_key (created_at);
