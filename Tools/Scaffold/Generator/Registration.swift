/// One line a new feature adds to a shared file, just above a marker comment there.
struct Registration {
    /// The file, relative to the package root.
    let file: String
    /// The marker line's text (trimmed); the line goes right above it.
    let marker: String
    /// The line to add, with `__Name__` standing for the feature's name.
    let line: String

    /// Where a feature registers: its name in `Package.swift` (with the `Live` target's
    /// dependencies when it has stores, `--store`), its plugin in the registry, its factory in the
    /// container.
    static func all(store: Bool) -> [Registration] { [feature(store: store)] + rest }

    /// Every line a feature may have added, whichever way it was made: what removing takes out.
    static let any = [feature(store: false), feature(store: true)] + rest + wire

    private static func feature(store: Bool) -> Registration {
        Registration(
            file: "Package.swift", marker: "// new-feature adds features above this line",
            line: store ? "    (\"__Name__\", [\"SQLStore\"] + postgres)," : "    (\"__Name__\", nil),")
    }

    private static let rest = [
        Registration(file: "Modules/App/FeatureRegistry.swift", marker: "// new-feature adds imports above this line", line: "import __Name__Views"),
        Registration(
            file: "Modules/App/FeatureRegistry.swift", marker: "// new-feature adds plugins above this line", line: "        __Name__Feature.self,"),
        Registration(file: "Modules/Container/AppContainer.swift", marker: "// new-feature adds imports above this line", line: "import __Name__"),
        Registration(
            file: "Modules/Container/AppContainer.swift", marker: "// new-feature adds factories above this line",
            line: "extension AppContainer: __Name__Factory { public func make__Name__ViewModel() -> __Name__ViewModel "
                + "{ __Name__ViewModel(service: sharedService { __newService__ }) } }"),
    ]

    /// With `--wire`, also its name among `wireFeatures` in `Package.swift`, which gives it API,
    /// Remote and Server targets.
    static let wire = [
        Registration(file: "Package.swift", marker: "// new-feature --wire adds wire features above this line", line: "    \"__Name__\",")
    ]
}
