import SQLStore

/// Auth's tables: accounts with password hashes, and the sessions they signed in.
public enum AuthSchema {
    /// Auth's migrations, oldest first.
    public static let migrations = [
        SchemaMigration(feature: "auth", version: 1, sql: """
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
    ]
}
