import Kernel
import SQLStore

/// Profile's table. `name_key` is the lower-cased display name, for prefix search.
public enum ProfileSchema {
    /// Profile's migrations, oldest first.
    public static let migrations = [
        SchemaMigration(
            feature: "profile", version: 1,
            sql: """
                CREATE TABLE profiles (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    display_name TEXT NOT NULL,
                    name_key TEXT NOT NULL,
                    status TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX profiles_by_name_key ON profiles(name_key);
                """),
        // Emails are kept in their composed form (NFC), as they are now compared.
        SchemaMigration.rewriting(feature: "profile", version: 2, table: "profiles", column: "email", Validation.emailKey),
        // A suspended account's name is marked where others see it (`ProfileRules.shownName`).
        SchemaMigration(feature: "profile", version: 3, sql: "ALTER TABLE profiles ADD COLUMN suspended INTEGER NOT NULL DEFAULT 0;"),
    ]
}
