import Kernel

/// A feature's REPL views: the screens it serves and the commands it adds everywhere.
public protocol REPLPlugin {
    /// The feature's name in the `features` configuration key (lower case).
    static var featureName: String { get }
    /// The screen for `route`, if this feature serves it.
    @MainActor static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)?
    /// Commands available on every screen once signed in.
    @MainActor static func commands(context: REPLContext) -> [REPLCommand]
    /// The screen this feature offers to start on (and to return to with `/home`), given
    /// whether someone is signed in; `nil` when it has none to offer.
    @MainActor static func start(signedIn: Bool, context: REPLContext) async -> REPLStart?
}

extension REPLPlugin {
    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] { [] }
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? { nil }
}
