import Foundation
import Kernel
import Observation

/// The conversation list screen: live rows a page at a time, starting and leaving conversations.
@MainActor
@Observable
public final class ConversationListViewModel {
    /// The rows loaded, most recent first: the first pages of the list.
    public private(set) var list: Loadable<[ConversationSummary]> = .idle
    /// Whether the list goes on past the rows loaded (`loadMore()`).
    public private(set) var hasMore = false
    /// The conversation created or found by the last `/new` or `/group`.
    public private(set) var created: Loadable<ConversationSummary> = .idle
    /// The conversation the last `leave` left.
    public private(set) var left: Loadable<ConversationID> = .idle
    /// The conversation whose notifications were last chosen (`chooseNotifications`).
    public private(set) var notificationsChosen: Loadable<ConversationID> = .idle

    private let service: any ConversationListService
    /// Rows loaded at a time.
    private let pageSize: Int
    /// Rows to load: a page, one more each `loadMore()`.
    @ObservationIgnored private var wanted: Int
    @ObservationIgnored private var changes: AsyncStream<Void>?

    /// Creates the view model over a list service, loading `pageSize` rows at a time.
    public init(service: any ConversationListService, pageSize: Int = ConversationRules.defaultPage) {
        self.service = service
        self.pageSize = min(max(pageSize, 1), ConversationRules.maxPage)
        wanted = self.pageSize
    }

    /// Loads the first pages of the list, as many rows as are shown (a page at first). Rows
    /// already shown stay while reloading; a cancelled load restores the state it started from.
    public func load() async {
        let previous = list
        if previous.value == nil { list = .loading }
        let (wanted, service) = (wanted, service)
        let next = await Loadable.from { () -> ([ConversationSummary], Bool) in
            var rows: [ConversationSummary] = []
            while true {
                let page = try await service.conversations(limit: min(ConversationRules.maxPage, wanted - rows.count), after: rows.last?.id)
                rows += page.conversations
                if !page.hasMore || page.conversations.isEmpty || rows.count >= wanted { return (rows, page.hasMore) }
            }
        }
        switch next {
        case .idle, .loading: list = previous
        case .failed(let error): list = .failed(error)
        case .loaded(let (rows, more)):
            hasMore = more
            list = .loaded(rows)
        }
    }

    /// Loads one page: the rows after the conversation `after` (a script's next page).
    public func loadPage(after: ConversationID) async {
        list = .loading
        let next = await Loadable.from { [service, pageSize] in try await service.conversations(limit: pageSize, after: after) }
        hasMore = next.value?.hasMore ?? false
        list =
            switch next {
            case .loaded(let page): .loaded(page.conversations)
            case .failed(let error): .failed(error)
            case .idle, .loading: .idle
            }
    }

    /// Loads another page.
    public func loadMore() async {
        wanted += pageSize
        await load()
    }

    /// Loads the whole list (to find a conversation by what a person typed, say).
    public func loadAll() async {
        wanted = .max
        await load()
    }

    /// Leaves a conversation.
    public func leave(_ conversationID: ConversationID) async {
        left = .loading
        left = await .from { [service] in
            try await service.leave(conversationID)
            return conversationID
        }
        if left.value != nil { await load() }
    }

    /// Chooses what in `conversationID` tells the user (`nil`: its standard level), until `until`
    /// or for good.
    public func chooseNotifications(_ level: NotificationLevel?, until: Date?, in conversationID: ConversationID) async {
        notificationsChosen = .loading
        notificationsChosen = await .from { [service] in
            try await service.chooseNotifications(level, until: until, in: conversationID)
            return conversationID
        }
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
