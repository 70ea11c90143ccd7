import Kernel
import SQLStore

/// Auth's tables: accounts with password hashes, and their sessions by token digest.
public enum AuthSchema {
    /// Auth's migrations, oldest first.
    public static let migrations = [
        SchemaMigration(
            feature: "auth", version: 1,
            sql: """
                CREATE TABLE auth_accounts (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE TABLE auth_sessions (
                    token TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES auth_accounts(id),
                    created_at REAL NOT NULL
                );
                """),
        // Sessions keep only a digest of their token and end after an idle time. Tokens kept in
        // plain text before this step are dropped: everyone signs in again once.
        SchemaMigration(
            feature: "auth", version: 2,
            sql: """
                DROP TABLE auth_sessions;
                CREATE TABLE auth_sessions (
                    token_digest TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES auth_accounts(id),
                    created_at REAL NOT NULL,
                    last_used_at REAL NOT NULL
                );
                CREATE INDEX auth_sessions_by_user ON auth_sessions(user_id);
                """),
        // Emails are kept in their composed form (NFC), as they are now compared.
        SchemaMigration.rewriting(feature: "auth", version: 3, table: "auth_accounts", column: "email", Validation.emailKey),
        // A server's invitation codes, by digest (`SQLRegistrationCodes`).
        SchemaMigration(
            feature: "auth", version: 4,
            sql: """
                CREATE TABLE auth_registration_codes (
                    id TEXT PRIMARY KEY,
                    digest TEXT NOT NULL UNIQUE,
                    uses INTEGER NOT NULL,
                    uses_left INTEGER NOT NULL,
                    expires_at REAL NOT NULL,
                    created_at REAL NOT NULL
                );
                """),
        // A server's password reset codes, by digest (`SQLResetCodes`).
        SchemaMigration(
            feature: "auth", version: 5,
            sql: """
                CREATE TABLE auth_reset_codes (
                    digest TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL UNIQUE REFERENCES auth_accounts(id),
                    expires_at REAL NOT NULL
                );
                """),
        // A suspended account keeps its data and signs in no more (`AccountStore.setSuspended`).
        SchemaMigration(feature: "auth", version: 6, sql: "ALTER TABLE auth_accounts ADD COLUMN suspended_at REAL;"),
        // What operators and admins did (`SQLAuditStore`).
        SchemaMigration(
            feature: "auth", version: 7,
            sql: """
                CREATE TABLE auth_audit (
                    id TEXT PRIMARY KEY,
                    at REAL NOT NULL,
                    actor TEXT NOT NULL,
                    action TEXT NOT NULL,
                    subject TEXT NOT NULL
                );
                CREATE INDEX auth_audit_by_time ON auth_audit(at);
                """),
        // A server's admins (`AccountStore.setAdmin`).
        SchemaMigration(feature: "auth", version: 8, sql: "ALTER TABLE auth_accounts ADD COLUMN admin_since REAL;"),
        // Reports of messages to the admins (`SQLReportStore`).
        SchemaMigration(
            feature: "auth", version: 9,
            sql: """
                CREATE TABLE auth_reports (
                    id TEXT PRIMARY KEY,
                    conversation_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    sender_id TEXT NOT NULL,
                    text TEXT NOT NULL,
                    reporter_id TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    reported_at REAL NOT NULL,
                    resolved_at REAL,
                    resolution TEXT,
                    UNIQUE (conversation_id, message_id, reporter_id)
                );
                CREATE INDEX auth_reports_by_time ON auth_reports(reported_at);
                """),
        // Ended sessions noted for a server's sockets (`SQLSessionEnds`).
        SQLSessionEnds.migration,
        // Bots, their API tokens and incoming webhooks (`SQLBotStore`).
        SQLBotStore.migration,
    ]
}
