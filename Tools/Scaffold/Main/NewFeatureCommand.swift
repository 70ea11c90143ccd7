import ArchitectureModel
import ArgumentParser
import FeatureScaffold
import Foundation

/// `swift run new-feature NAME`: a complete feature plugin, registered and ready to build.
@main
struct NewFeatureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-feature",
        abstract: "Create (or --remove) a feature plugin: model, service, in-memory service, view model, CLI and REPL commands, tests.",
        discussion: """
            Writes Modules/NAME/Core, Modules/NAME/Views and Tests/NAMETests, and registers the feature in \
            Package.swift, Modules/App/FeatureRegistry.swift and Modules/Container/AppContainer.swift (one line \
            above each `// new-feature adds … above this line` marker). --remove takes exactly that out again. \
            --wire also writes Modules/NAME/API, Server and Remote (its endpoints, the routes answering them \
            and the remote service calling them) and adds NAME to wireFeatures in Package.swift; serving \
            it is then by hand: the routes in ServerRoutes, the service a field of ServiceSet made by each \
            backend (the remote one making the remote service). --store writes the rules as \
            StoredNAMEService over a NAMEStore port, with stores in memory (Core), SQLite and PostgreSQL \
            (Modules/NAME/Live, their migrations beside them), and gives NAME a Live target in Package.swift; \
            the container keeps the in-memory store until a backend makes the others (docs/tools.md, \
            "Adding a feature").
            """)

    @Argument(help: "The feature's name, UpperCamelCase (e.g. Notes).") var name: String
    @Option(help: "The package root.") var package = "."
    @Flag(help: "Also write its wire contract, server routes and remote service.") var wire = false
    @Flag(help: "Write its rules over a store port, with stores in memory, SQLite and PostgreSQL.") var store = false
    @Flag(help: "Remove the feature's folders and registration lines instead.") var remove = false

    func run() throws {
        let root = URL(fileURLWithPath: package)
        do {
            let scaffold = try FeatureScaffold(name: name, wire: wire, store: store)
            let started = ContinuousClock.now
            let paths = remove ? try scaffold.remove(from: root) : try scaffold.generate(in: root)
            let milliseconds = (ContinuousClock.now - started) / .milliseconds(1)
            paths.forEach { print("\(remove ? "removed or edited" : "wrote") \($0)") }
            print("\(remove ? "Removed" : "Created") feature \(scaffold.name) in \(Int(milliseconds.rounded())) ms.")
            if !remove {
                print(
                    """
                    Next: swift build && swift run arch-check && swift test --filter \(scaffold.name)Tests
                    Try it: swift run messageai \(scaffold.commandName) --backend memory
                    """)
            }
        } catch let error as ToolError {
            FileHandle.standardError.write(Data("new-feature: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
