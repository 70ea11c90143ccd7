/// One line a new feature adds to a shared file, just above a marker comment there.
struct Registration {
    /// The file, relative to the package root.
    let file: String
    /// The marker line's text (trimmed); the line goes right above it.
    let marker: String
    /// The line to add, with `__Name__` standing for the feature's name.
    let line: String

    /// Where a feature registers: its name in `Package.swift`, its plugin in the registry, its
    /// factory in the container.
    static let all = [
        Registration(file: "Package.swift", marker: "// new-feature adds features above this line", line: "    (\"__Name__\", nil),"),
        Registration(file: "Modules/App/FeatureRegistry.swift", marker: "// new-feature adds imports above this line", line: "import __Name__Views"),
        Registration(
            file: "Modules/App/FeatureRegistry.swift", marker: "// new-feature adds plugins above this line", line: "        __Name__Feature.self,"),
        Registration(file: "Modules/Container/AppContainer.swift", marker: "// new-feature adds imports above this line", line: "import __Name__"),
        Registration(
            file: "Modules/Container/AppContainer.swift", marker: "// new-feature adds factories above this line",
            line: "extension AppContainer: __Name__Factory { public func make__Name__ViewModel() -> __Name__ViewModel "
                + "{ __Name__ViewModel(service: sharedService { InMemory__Name__Service() }) } }"),
    ]

    /// With `--wire`, also its name among `wireFeatures` in `Package.swift`, which gives it API,
    /// Remote and Server targets.
    static let wire = [
        Registration(file: "Package.swift", marker: "// new-feature --wire adds wire features above this line", line: "    \"__Name__\",")
    ]
}
