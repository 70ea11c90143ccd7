import Auth
import AuthAPI
import Kernel
import ServerSupport

/// Auth's routes: sign-up and sign-in (rate-limited per account and per client address), the
/// session of the bearer token, sign-out and password change.
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
            try limits.admitSignUp(address: call.clientAddress)
            return SessionReply(try await accounts.signUp(email: call.body.email, displayName: call.body.displayName, password: call.body.password))
        }
        routes.add(AuthAPI.signIn) { call in
            try limits.admit(email: call.body.email, address: call.clientAddress)
            return SessionReply(try await accounts.signIn(email: call.body.email, password: call.body.password))
        }
        routes.add(AuthAPI.session) { call in try await accounts.account(for: try Self.token(of: call)) }
        routes.add(AuthAPI.signOut) { call in
            let token = try Self.token(of: call)
            _ = try await accounts.account(for: token)
            try await accounts.revoke(token: token)
            return NoContent()
        }
        routes.add(AuthAPI.changePassword) { call in
            try await accounts.changePassword(token: try Self.token(of: call), current: call.body.current, new: call.body.new)
            return NoContent()
        }
    }

    private static func token<Body>(of call: APICall<Body>) throws -> String {
        guard let token = call.token else { throw AppError.notSignedIn }
        return token
    }
}
