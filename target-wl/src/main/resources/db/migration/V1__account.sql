-- The target workload's accounts (docs/design.md "Target database"); portable between H2 2.x and PostgreSQL.
-- user_id is the delegated user (dpr); the repository bounds it to 2048 UTF-8 bytes, which also keeps
-- the primary-key index entry below PostgreSQL's B-tree limit.
CREATE TABLE account (
    user_id    VARCHAR(2048)            NOT NULL,
    balance    BIGINT                   DEFAULT 0 NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT account_pk PRIMARY KEY (user_id),
    CONSTRAINT account_balance_non_negative CHECK (balance >= 0)
);
