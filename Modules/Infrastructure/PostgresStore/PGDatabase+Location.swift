import Foundation
import Kernel
import PostgresNIO

extension PGDatabase {
    /// Where the database is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, and
    /// `?host=/folder` (with `&port=PORT` when it is not 5432) for a server's unix socket in that folder.
    public struct Location: Sendable, CustomStringConvertible {
        public let user: String
        let password: String?
        public let host: String
        public let port: Int
        public let database: String
        /// The folder of the server's unix socket, if it is reached that way.
        public let socketFolder: String?

        /// Reads `url`.
        /// - Throws: `AppError(.usage)` saying what is wrong with it.
        public init(url: String) throws {
            func refuse(_ why: String) -> AppError {
                AppError(
                    .usage,
                    "the PostgreSQL URL \(AppError.quoting(Self.withoutPassword(url))) \(why); "
                        + "it is postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, with ?host=/folder for a unix socket")
            }
            guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? "") else {
                throw refuse("is not a postgres:// URL")
            }
            guard let user = parts.user, !user.isEmpty else { throw refuse("names no user") }
            let database = String(parts.path.dropFirst())
            guard !database.isEmpty, !database.contains("/") else { throw refuse("names no database") }
            let socketFolder = parts.queryItems?.first { $0.name == "host" }?.value
            guard socketFolder != nil || !(parts.host ?? "").isEmpty else { throw refuse("names no host") }
            self.user = user
            password = parts.password
            host = parts.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
            let portItem = parts.queryItems?.first { $0.name == "port" }?.value
            guard portItem == nil || Int(portItem ?? "") != nil else { throw refuse("has a port that is not a number") }
            port = parts.port ?? portItem.flatMap(Int.init) ?? 5432
            self.database = database
            self.socketFolder = socketFolder
        }

        /// The URL without its password, for messages and logs.
        public var description: String {
            "postgres://\(user)@\(socketFolder.map { "[\($0)]" } ?? host):\(port)/\(database)"
        }

        func configuration(connections: Int) -> PostgresClient.Configuration {
            var configuration =
                if let socketFolder {
                    PostgresClient.Configuration(unixSocketPath: socketPath(in: socketFolder), username: user, password: password, database: database)
                } else {
                    PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
                }
            configuration.options.additionalStartupParameters = [("application_name", "messageai-server")]
            configuration.options.maximumConnections = connections
            return configuration
        }

        /// Connects once, then lets go: a database that cannot be reached, does not exist or
        /// refuses the user is told at once (the pool would wait for it without a word).
        func probe(logger: Logger) async throws {
            let connection = try await connect(logger: logger)
            try? await connection.close()
        }

        /// A connection of its own, outside the pool (the probe's, the listener's).
        func connect(logger: Logger) async throws -> PostgresConnection {
            let configuration =
                if let socketFolder {
                    PostgresConnection.Configuration(
                        unixSocketPath: socketPath(in: socketFolder), username: user, password: password, database: database)
                } else {
                    PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
                }
            return try await PostgresConnection.connect(on: PGDatabase.eventLoops.any(), configuration: configuration, id: 0, logger: logger)
        }

        /// The server's socket file in `folder`, as PostgreSQL names it after the port.
        private func socketPath(in folder: String) -> String { "\(folder)/.s.PGSQL.\(port)" }

        private static func withoutPassword(_ url: String) -> String {
            url.replacing(/:[^:@\/]*@/, with: ":…@")
        }
    }
}
