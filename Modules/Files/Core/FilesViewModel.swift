import Kernel
import Observation

/// A conversation's files, newest first, a page at a time: `messageai files CHAT` and the
/// REPL's `/files`.
@MainActor
@Observable
public final class FilesViewModel {
    /// How many files a page holds.
    public static let pageSize = 50

    /// The files shown so far, newest first.
    public private(set) var files: Loadable<[SharedFile]> = .idle
    /// Whether older files may be left to load (`more()`).
    public private(set) var hasOlder = false

    private let service: any FilesService
    private let conversationID: ConversationID

    /// Creates the view model of `conversationID`'s files over `service`; nothing loads until `load()`.
    public init(service: any FilesService, conversationID: ConversationID) {
        self.service = service
        self.conversationID = conversationID
    }

    /// Loads the newest page.
    public func load(pageSize: Int = FilesViewModel.pageSize) async {
        files = .loading
        await append(before: nil, pageSize: pageSize, to: [])
    }

    /// Loads the page older than those shown.
    public func more(pageSize: Int = FilesViewModel.pageSize) async {
        guard case .loaded(let shown) = files, hasOlder, let last = shown.last else { return }
        await append(before: last.id, pageSize: pageSize, to: shown)
    }

    private func append(before: FileID?, pageSize: Int, to shown: [SharedFile]) async {
        let page = await Loadable.from { [service, conversationID] in
            try await service.files(in: conversationID, before: before, limit: pageSize)
        }
        switch page {
        case .loaded(let older):
            hasOlder = older.count == pageSize
            files = .loaded(shown + older)
        case .failed(let error): files = .failed(error)
        case .idle, .loading: files = shown.isEmpty ? .idle : .loaded(shown)
        }
    }
}
