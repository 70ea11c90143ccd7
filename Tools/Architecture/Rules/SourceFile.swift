import ArchitectureModel
import SwiftParser
import SwiftSyntax

/// A parsed source file of one target.
public struct SourceFile {
    /// The file, relative to the package root.
    public let path: String
    /// The target it belongs to.
    public let target: PackageTarget
    /// Its syntax tree.
    let tree: SourceFileSyntax
    /// Its lines, for exemptions.
    let lines: [Substring]
    private let converter: SourceLocationConverter

    /// Parses `text` as the file at `path` of `target`.
    public init(path: String, text: String, target: PackageTarget) {
        self.path = path
        self.target = target
        tree = Parser.parse(source: text)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        converter = SourceLocationConverter(fileName: path, tree: tree)
    }

    /// The file name without `.swift` (and without a `+Topic` suffix of an extension file).
    var typeName: String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let base = file.hasSuffix(".swift") ? String(file.dropLast(6)) : file
        return base.split(separator: "+").first.map(String.init) ?? base
    }

    /// The line where `node` starts (after its comments).
    func line(of node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }

    /// The line where `node` ends.
    func endLine(of node: some SyntaxProtocol) -> Int {
        converter.location(for: node.endPositionBeforeTrailingTrivia).line
    }

    /// A report of `rule` at `node`.
    func violation(_ rule: RuleID, at node: some SyntaxProtocol, _ message: String) -> Violation {
        Violation(path: path, line: line(of: node), rule: rule, message: message)
    }
}
