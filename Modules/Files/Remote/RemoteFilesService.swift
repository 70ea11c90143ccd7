import Kernel
import RemoteClient
import Files
import FilesAPI

/// One caller's Files on the MessageAI server, for the remote backend (`RemoteBackend`) to make
/// once the feature is served.
public struct RemoteFilesService: FilesService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func items() async throws -> [FilesItem] {
        try await connection.call(FilesAPI.items, body: NoContent(), as: caller).items
    }

    public func add(title: String) async throws -> FilesItem {
        try await connection.call(FilesAPI.add, body: FilesAddition(title: title), as: caller)
    }
}
