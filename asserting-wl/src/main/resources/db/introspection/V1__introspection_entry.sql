-- asserting-wl's shared introspection store (JdbcIntrospectionStore), for replicated deployments;
-- portable between H2 2.x and PostgreSQL. Its own location and history table (see
-- JdbcIntrospectionStore.migrate), so it never mixes with target-wl's account migrations.
CREATE TABLE introspection_entry (
    kind          VARCHAR(32)              NOT NULL,
    entry_key     VARCHAR(1024)            NOT NULL,
    proof_msg     TEXT,
    proof_zkp     TEXT,
    proof_idp_key TEXT,
    pending_token TEXT,
    expires_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT introspection_entry_pk PRIMARY KEY (kind, entry_key)
);
CREATE INDEX introspection_entry_expires ON introspection_entry (expires_at);
