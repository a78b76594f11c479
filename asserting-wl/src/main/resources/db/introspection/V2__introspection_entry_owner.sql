-- Each record's owner: the SHA-256 (base64url) of the user's issuer and subject, so that a store bounds
-- one user's records and drops that user's own oldest first (JdbcIntrospectionStore.trimOwner). Rows
-- written before have no owner and are never trimmed; they expire as before.
ALTER TABLE introspection_entry ADD COLUMN owner VARCHAR(64);
CREATE INDEX introspection_entry_owner ON introspection_entry (kind, owner, expires_at);
