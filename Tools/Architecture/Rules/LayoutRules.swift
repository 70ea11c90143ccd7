import ArchitectureModel
import SwiftSyntax

/// How sources are laid out: no file of a few lines holding a type on its own (it goes beside
/// the type it serves), and no target folder of more files than a reader takes in at a glance.
struct LayoutRules {
    /// A file with at most this many lines of code (not blank, not comments, not imports) that
    /// declares a type other than a protocol, or an extension, is too small to stand alone.
    /// Protocols stay: a port has its own file (ADR 4).
    static let tinyFileLines = 6
    /// Most files directly in a target's folder; more are grouped in subfolders.
    static let maxFilesPerFolder = 12

    let files: [SourceFile]

    func check() -> [Violation] {
        files.compactMap(tiny) + crowdedFolders()
    }

    private func tiny(_ file: SourceFile) -> Violation? {
        let declarations = file.tree.statements.compactMap { statement -> DeclSyntax? in
            guard case .decl(let decl) = statement.item, !decl.is(ImportDeclSyntax.self) else { return nil }
            return decl
        }
        let standsAlone = declarations.contains { decl in
            decl.is(ExtensionDeclSyntax.self) || TypeDeclaration(decl).map { !$0.isProtocol } == true
        }
        let code = file.lines.count { line in
            let text = line.drop { $0 == " " || $0 == "\t" }
            return !text.isEmpty && !text.hasPrefix("//") && !text.hasPrefix("import ")
        }
        guard standsAlone, code <= Self.tinyFileLines, let first = declarations.first else { return nil }
        return file.violation(
            .tinyFile, at: first,
            "\(file.typeName) has \(code) line\(code == 1 ? "" : "s") of code; put it beside the type it serves, so that a concept reads in one file")
    }

    private func crowdedFolders() -> [Violation] {
        Dictionary(grouping: files) { $0.target.path }.compactMap { folder, files in
            let direct = files.filter { !$0.path.dropFirst(folder.count + 1).contains("/") }.sorted { $0.path < $1.path }
            guard direct.count > Self.maxFilesPerFolder, let first = direct.first else { return nil }
            return Violation(
                path: first.path, line: 1, rule: .subfolders,
                message:
                    "\(folder) holds \(direct.count) files (at most \(Self.maxFilesPerFolder)); group them in subfolders by concept (models, ports, in-memory, view models)"
            )
        }
    }
}
