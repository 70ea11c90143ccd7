import Kernel
import Observation

/// Whether the user's read receipts are private: a setting of theirs for every conversation.
@MainActor
@Observable
public final class ReceiptPrivacyViewModel {
    /// The outcome of the last change: whether receipts are now private.
    public private(set) var state: Loadable<Bool> = .idle
    private let service: any ChatService

    /// Creates the view model over the user's chat service.
    public init(service: any ChatService) { self.service = service }

    /// Keeps the user's read receipts private (`true`) or shares them.
    public func set(private isPrivate: Bool) async {
        state = .loading
        state = await .from { [service] in
            try await service.setReceiptsPrivate(isPrivate)
            return isPrivate
        }
    }
}
