import ConversationList
import Kernel
import Profile

/// The list's titles come from Profile's display names.
struct UserDirectoryAdapter: UserDirectory {
    let registry: any ProfileRegistry

    func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        try await registry.displayNames(of: ids)
    }
}
