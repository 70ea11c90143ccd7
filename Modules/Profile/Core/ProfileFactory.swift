/// Makes Profile's view models; the container conforms, views ask for it.
@MainActor
public protocol ProfileFactory {
    /// A profile screen: the signed-in user's (`subject == nil`) or a user id's or email's.
    func makeProfileViewModel(subject: String?) -> ProfileViewModel
    /// People search.
    func makeUserSearchViewModel() -> UserSearchViewModel
}
