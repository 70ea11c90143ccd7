import Kernel

/// A feature's REPL views: the screens it serves and the commands it adds everywhere.
public protocol REPLPlugin {
    /// The feature's name in the `features` configuration key (lower case).
    static var featureName: String { get }
    /// The screen for `route`, if this feature serves it.
    @MainActor static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)?
    /// Commands available on every screen once signed in.
    @MainActor static func commands(context: REPLContext) -> [REPLCommand]
}

extension REPLPlugin {
    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] { [] }
}
