import ConversationList
import Kernel
import Profile

/// The list's titles come from Profile's display names.
struct UserDirectoryAdapter: UserDirectory {
    let profiles: any ProfileService

    func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        try await profiles.displayNames(of: ids)
    }
}
