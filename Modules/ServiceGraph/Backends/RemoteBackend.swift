import Auth
import AuthRemote
import Chat
import ChatRemote
import ConversationListRemote
import FilesRemote
import Kernel
import ProfileRemote
import RemoteClient
import SearchRemote

/// The MessageAI server: every service is a remote one over the process's shared connection.
final class RemoteBackend: GraphBackend {
    private let connection: RemoteConnection
    let accounts: any AccountService

    init(_ options: GraphOptions) throws {
        guard let url = options.remoteURL else {
            throw AppError(.usage, "the remote backend needs a server: --server URL (or remote.url, MESSAGEAI_REMOTE_URL)")
        }
        connection = try RemoteConnection(
            server: try ServerAddress(url), timeout: options.remoteTimeout,
            trustedCertificates: options.remoteCertificates)
        accounts = RemoteAccountService(connection: connection)
    }

    func services(for caller: Caller) -> ServiceSet {
        ServiceSet(
            profiles: RemoteProfileService(connection: connection, caller: caller),
            conversations: RemoteConversationListService(connection: connection, caller: caller),
            chat: RemoteChatService(connection: connection, caller: caller),
            events: RemoteEventStreamService(connection: connection, caller: caller),
            typing: RemoteTypingService(connection: connection, caller: caller),
            search: RemoteSearchService(connection: connection, caller: caller), files: RemoteFilesService(connection: connection, caller: caller))
    }

    var administration: Administration { .server(connection) }

    var botCredentials: BotCredentials? { nil }

    func bots(for caller: Caller, budget: UsageBudget, revoked: @escaping @Sendable () -> Void) -> any BotService {
        RemoteBotService(connection: connection, caller: caller)
    }

    var eventFeed: (any EventFeed)? { nil }

    func erase(_ which: ErasedMessages) async throws -> Int {
        throw AppError(.usage, "messages are erased by the server that keeps them")
    }

    func demoSession() async -> IssuedSession? { nil }
}
