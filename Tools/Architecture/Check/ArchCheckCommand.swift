import ArchitectureRules
import ArgumentParser
import Foundation

/// `swift run arch-check`: the architecture rules over the package's sources and graph.
@main
struct ArchCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arch-check",
        abstract: "Check the sources and the package graph against the architecture rules.",
        discussion: """
            Reads the package graph (`swift package describe --type json`) and parses every source file of \
            Modules/ and Apps/ with swift-syntax. Prints each violation as `path:line: rule-id: message` and \
            exits 1 when there is one. Exempt a place with a comment on or just above the reported line: \
            `// arch-check: allow RULE-ID: the reason`. The rules are listed with --rules and explained in docs/tools.md.
            """)

    @Option(help: "The package root.") var package = "."
    @Flag(help: "List the rules and exit.") var rules = false

    func run() async throws {
        if rules {
            RuleID.allCases.forEach { print($0.rawValue) }
            return
        }
        let root = URL(fileURLWithPath: package)
        let checker: ArchitectureChecker
        do {
            checker = try await ArchitectureChecker.load(packageAt: root)
        } catch {
            FileHandle.standardError.write(Data("arch-check: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let violations = checker.violations()
        violations.forEach { print($0) }
        let summary =
            "arch-check: \(checker.files.count) files in \(Set(checker.files.map(\.target.name)).count) targets, "
            + (violations.isEmpty ? "no violations" : "\(violations.count) violation\(violations.count == 1 ? "" : "s")")
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        if !violations.isEmpty { throw ExitCode(1) }
    }
}
