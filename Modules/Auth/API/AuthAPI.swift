import Auth
import Kernel

/// Auth's wire contract: sign-up and sign-in hand out a session token; every other call of the
/// API carries it as `Authorization: Bearer <token>`.
public enum AuthAPI {
    /// Creates an account and its profile, and signs it in.
    public static let signUp = Endpoint<SignUpRequest, SessionReply, PathParameters.None>(
        .post, "/v1/auth/signup", "Create an account and its profile; returns a session token", needsSession: false, successStatus: 201)
    /// Signs in with email and password.
    public static let signIn = Endpoint<SignInRequest, SessionReply, PathParameters.None>(
        .post, "/v1/auth/signin", "Sign in with email and password; returns a session token (rate-limited)", needsSession: false)
    /// The account of the token; using it restarts the session's idle time.
    public static let session = Endpoint<NoContent, Account, PathParameters.None>(.get, "/v1/auth/session", "The account the session token belongs to")
    /// Ends the session of the token (401 when it has already ended).
    public static let signOut = Endpoint<NoContent, NoContent, PathParameters.None>(.delete, "/v1/auth/session", "End this session", successStatus: 204)
    /// Changes the password; every other session of the user ends.
    public static let changePassword = Endpoint<PasswordChange, NoContent, PathParameters.None>(
        .post, "/v1/auth/password", "Change the password; ends every other session of the user", successStatus: 204)

    /// Every Auth endpoint.
    public static let endpoints = [signUp.spec, signIn.spec, session.spec, signOut.spec,
                                   changePassword.spec]
}
