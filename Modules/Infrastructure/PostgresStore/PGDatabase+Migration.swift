import Kernel
import PostgresNIO

extension PGDatabase {
    /// One step of a feature's schema: statements run in order, in one transaction with every
    /// other step not yet applied.
    public struct Migration: Sendable {
        let feature: String
        let version: Int
        let statements: [String]

        /// Step `version` of `feature`, one statement a string.
        public init(feature: String, version: Int, _ statements: [String]) {
            self.feature = feature
            self.version = version
            self.statements = statements
        }
    }

    /// The advisory lock key of migrations ("MAIM" in ASCII).
    static let migrationLock = 0x4D41_494D

    /// Runs the steps not yet applied, in one transaction under an advisory lock, so that
    /// instances starting together on a new database take turns.
    func migrate(_ migrations: [Migration]) async throws {
        try await explained {
            try await transaction { transaction in
                try await transaction.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
                try await transaction.query(
                    """
                    CREATE TABLE IF NOT EXISTS messageai_migrations (feature text NOT NULL, version integer NOT NULL, PRIMARY KEY (feature, version))
                    """)
                var applied: Set<String> = []
                for row in try await transaction.query("SELECT feature, version FROM messageai_migrations") {
                    let (feature, version) = try row.decode((String, Int).self)
                    applied.insert("\(feature).\(version)")
                }
                let known = Set(migrations.map { "\($0.feature).\($0.version)" })
                if let newer = applied.subtracting(known).sorted().first {
                    throw AppError(.unavailable, "the database was migrated by a newer MessageAI (step \(newer)); run that version")
                }
                for migration in migrations where !applied.contains("\(migration.feature).\(migration.version)") {
                    for statement in migration.statements { try await transaction.query(PostgresQuery(unsafeSQL: statement)) }
                    try await transaction.query(
                        "INSERT INTO messageai_migrations (feature, version) VALUES (\(migration.feature), \(migration.version))")
                }
            }
        }
    }
}
