import Auth
import Chat
import ConversationList
import Kernel
import Profile

/// The four services of one backend, wired to each other.
struct ServiceSet {
    let auth: any AuthService
    let profiles: any ProfileService
    let conversations: any ConversationListService
    let chat: any ChatService
}
