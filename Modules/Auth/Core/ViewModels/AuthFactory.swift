/// Makes Auth's view models; the container conforms, views ask for it.
@MainActor
public protocol AuthFactory {
    /// The sign-in / sign-up screen.
    func makeSignInViewModel() -> SignInViewModel
    /// The session: whoami, sign out, change password.
    func makeSessionViewModel() -> SessionViewModel
    /// Looking after the server, as the signed-in account (an admin).
    func makeAdminViewModel() -> AdminViewModel
    /// Reporting a message to the server's admins.
    func makeReportViewModel() -> ReportViewModel
    /// The signed-in person's bots, tokens and hooks.
    func makeBotsViewModel() -> BotsViewModel
}
