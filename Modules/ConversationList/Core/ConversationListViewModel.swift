import Foundation
import Kernel
import Observation

/// The conversation list screen: live rows, and starting new conversations.
@MainActor
@Observable
public final class ConversationListViewModel {
    /// The rows, most recent first.
    public private(set) var list: Loadable<[ConversationSummary]> = .idle
    /// The conversation created or found by the last `/new` or `/group`.
    public private(set) var created: Loadable<ConversationSummary> = .idle

    private let service: any ConversationListService
    @ObservationIgnored private var changes: AsyncStream<Void>?

    /// Creates the view model over a list service.
    public init(service: any ConversationListService) { self.service = service }

    /// Loads the list. Rows already shown stay while reloading; a cancelled load restores the
    /// state it started from.
    public func load() async {
        let previous = list
        if previous.value == nil { list = .loading }
        let next = await Loadable.from { try await service.conversations() }
        if case .idle = next { list = previous } else { list = next }
    }

    /// Subscribes to changes, then loads the list. Call `listen()` next, so that no change in
    /// between is missed.
    public func start() async {
        changes = await Loadable.from { try await service.changes() }.value
        await load()
    }

    /// Reloads the list on every change until the calling task is cancelled. Does nothing before `start()`.
    public func listen() async {
        guard let changes else { return }
        self.changes = nil
        for await _ in changes { await load() }
    }

    /// Opens (or creates) the one-to-one conversation with `userID`.
    public func startConversation(with userID: UserID) async {
        created = .loading
        created = await .from { try await service.startDirect(with: userID) }
        if created.value != nil { await load() }
    }

    /// Creates a group.
    public func createGroup(title: String, memberIDs: [UserID]) async {
        created = .loading
        created = await .from { try await service.createGroup(title: title, memberIDs: memberIDs) }
        if created.value != nil { await load() }
    }

    /// Starts what the front ends' "new conversation" asks for: with a `title`, a group of
    /// `userIDs`; without, the one-to-one conversation with the one user (several need a title).
    public func startConversation(with userIDs: [UserID], title: String?) async {
        if let title { return await createGroup(title: title, memberIDs: userIDs) }
        guard userIDs.count == 1 else {
            created = .failed(AppError(.usage, "a conversation with several people needs a title"))
            return
        }
        await startConversation(with: userIDs[0])
    }

    /// Resolves what a person typed to a conversation of the loaded list (`ConversationReference`).
    /// - Throws: `.notFound`, or `.conflict` listing the candidates when it could mean several.
    public func resolve(_ reference: String) throws -> ConversationSummary {
        try ConversationReference.resolve(reference, in: list.value ?? [])
    }
}
