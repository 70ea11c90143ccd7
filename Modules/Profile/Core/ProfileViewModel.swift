import Kernel
import Observation

/// The profile screen: one user's profile, and editing one's own.
@MainActor
@Observable
public final class ProfileViewModel {
    /// The profile shown.
    public private(set) var profile: Loadable<Profile> = .idle
    /// The outcome of the last edit; failures do not hide the loaded profile.
    public private(set) var update: Loadable<Profile> = .idle

    private let service: any ProfileService
    private let subject: String?

    /// Shows `subject` (a user id or email), or the signed-in user's own profile when `nil`.
    public init(service: any ProfileService, subject: String? = nil) {
        self.service = service
        self.subject = subject
    }

    /// Loads the profile.
    public func load() async {
        profile = .loading
        profile = await .from { [service, subject] in
            if let subject { try await service.profile(matching: subject) } else { try await service.myProfile() }
        }
    }

    /// Saves a new display name and/or status; `nil` leaves a field unchanged.
    public func save(displayName: String?, status: String?) async {
        update = .loading
        update = await .from { try await service.updateMyProfile(displayName: displayName, status: status) }
        if case .loaded(let saved) = update { profile = .loaded(saved) }
    }
}
