import ConversationList
import Kernel
import Profile

/// Profile's renames are seen by the renamed user and their contacts, as the list's directory
/// knows them (those the user blocked left out).
struct RenameAudienceAdapter: RenameAudience {
    let directory: Deferred<any ConversationDirectory>

    func audience(ofRenamed user: UserID) async throws -> [UserID] {
        [user] + (try await directory.get().contacts(of: user))
    }
}
