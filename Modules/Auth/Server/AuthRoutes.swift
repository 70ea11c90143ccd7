import Auth
import AuthAPI
import Kernel
import ServerSupport

/// Auth's routes: sign-up (rate-limited per client address), sign-in and password change
/// (their password checks rate-limited per account and per client address, `SignInLimits`),
/// the session of the bearer token and sign-out.
public struct AuthRoutes: Sendable {
    private let accounts: any AccountService
    private let limits: SignInLimits

    /// Creates the routes over the server's account service.
    public init(accounts: any AccountService, limits: SignInLimits = SignInLimits()) {
        self.accounts = accounts
        self.limits = limits
    }

    /// Registers every Auth endpoint.
    public func add(to routes: APIRoutes) {
        let accounts = accounts, limits = limits
        routes.add(AuthAPI.signUp) { call in
            try await limits.signingUp(address: call.clientAddress) {
                SessionReply(
                    try await accounts.signUp(
                        email: call.body.email, displayName: call.body.displayName, password: call.body.password, invite: call.body.invite))
            }
        }
        routes.add(AuthAPI.signIn) { call in
            try await limits.checking(email: call.body.email, address: call.clientAddress) {
                SessionReply(try await accounts.signIn(email: call.body.email, password: call.body.password))
            }
        }
        routes.add(AuthAPI.session) { call in try await accounts.account(for: try Self.token(of: call)) }
        routes.add(AuthAPI.signOut) { call in
            let token = try Self.token(of: call)
            _ = try await accounts.account(for: token)
            try await accounts.revoke(token: token)
            return NoContent()
        }
        routes.add(AuthAPI.changePassword) { call in
            let token = try Self.token(of: call)
            // Checking the current password is a guess like a sign-in's, from the same budget.
            let account = try await accounts.account(for: token)
            try await limits.checking(email: account.email, address: call.clientAddress) {
                try await accounts.changePassword(token: token, current: call.body.current, new: call.body.new)
            }
            return NoContent()
        }
        routes.add(AuthAPI.deleteAccount) { call in
            let token = try Self.token(of: call)
            // The password is a guess like a sign-in's, from the same budget.
            let account = try await accounts.account(for: token)
            try await limits.checking(email: account.email, address: call.clientAddress) {
                try await accounts.deleteAccount(token: token, password: call.body.password)
            }
            return NoContent()
        }
        routes.add(AuthAPI.resetPassword) { call in
            // A code is a guess like a password: from the address's sign-up budget.
            try await limits.signingUp(address: call.clientAddress) {
                SessionReply(try await accounts.resetPassword(code: call.body.code, newPassword: call.body.new))
            }
        }
    }

    private static func token<Body, Path>(of call: APICall<Body, Path>) throws -> String {
        guard let token = call.token else { throw AppError.notSignedIn }
        return token
    }
}
