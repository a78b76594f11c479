-- Accounts are keyed by (issuer, user_id): the delegated user (dpr) is only unique at its OAuth
-- issuer (dpa), so alice at one allow-listed IdP never shares a balance with alice at another.
-- Accounts of version 1 had no issuer: they keep the empty issuer, which no verified document has.
-- issuer is bounded to 512 UTF-8 bytes by the repository, so the key stays one B-tree entry.
ALTER TABLE account ADD COLUMN issuer VARCHAR(512) DEFAULT '' NOT NULL;
ALTER TABLE account DROP CONSTRAINT account_pk;
ALTER TABLE account ADD CONSTRAINT account_pk PRIMARY KEY (issuer, user_id);
