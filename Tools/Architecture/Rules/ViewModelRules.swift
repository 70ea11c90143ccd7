import ArchitectureModel
import SwiftSyntax

/// The seeds' view-model rules, for every class named `…ViewModel`.
struct ViewModelRules {
    /// The most lines a view model may span.
    static let maxLines = ArchitectureMetrics.viewModelLimit
    /// Calls and types that format for, or write to, a terminal: the view's business.
    static let uiNames: Set<String> = [
        "print", "debugPrint", "FileHandle", "DateFormatter", "ISO8601DateFormatter", "NumberFormatter",
        "ByteCountFormatter", "RelativeDateTimeFormatter", "ListFormatter", "MeasurementFormatter", "AttributedString",
    ]
    static let uiPrefixes = ["ANSI", "Terminal", "Console"]

    func check(_ file: SourceFile) -> [Violation] {
        TypeDeclaration.all(in: file).filter { $0.kind == "class" && $0.name.hasSuffix("ViewModel") }.flatMap { model in
            shape(model, file) + storedState(model, file) + initializers(model, file) + uiTypes(model, file)
        }
    }

    private func shape(_ model: TypeDeclaration, _ file: SourceFile) -> [Violation] {
        var found: [Violation] = []
        if !model.attributes.contains("MainActor") {
            found.append(file.violation(.viewModelMainActor, at: model.node, "\(model.name) is not @MainActor"))
        }
        if !model.attributes.contains("Observable") {
            found.append(file.violation(.viewModelObservable, at: model.node, "\(model.name) is not @Observable"))
        }
        let lines = file.endLine(of: model.node) - file.line(of: model.node) + 1
        if lines > Self.maxLines {
            found.append(
                file.violation(
                    .viewModelLength, at: model.node,
                    "\(model.name) is \(lines) lines (at most \(Self.maxLines)); split it by concern"))
        }
        return found
    }

    private func storedState(_ model: TypeDeclaration, _ file: SourceFile) -> [Violation] {
        model.storedVariables.compactMap { variable in
            let modifiers = variable.modifiers.map(\.trimmedDescription)
            let hidden = modifiers.contains { ["private", "fileprivate", "private(set)", "fileprivate(set)"].contains($0) }
            guard !hidden else { return nil }
            let names = variable.bindings.map(\.pattern.trimmedDescription).joined(separator: ", ")
            return file.violation(.viewModelPrivateSet, at: variable, "\(model.name).\(names) can be set from outside; make it private(set)")
        }
    }

    private func initializers(_ model: TypeDeclaration, _ file: SourceFile) -> [Violation] {
        let methods = Set(
            model.memberDecls.compactMap { $0.as(FunctionDeclSyntax.self) }
                .filter { !$0.modifiers.contains { $0.name.text == "static" } }.map(\.name.text))
        return model.memberDecls.compactMap { $0.as(InitializerDeclSyntax.self)?.body }.flatMap { body in
            let finder = WorkFinder(methods: methods, viewMode: .sourceAccurate)
            finder.walk(body)
            return finder.found.map { node, what in
                file.violation(.viewModelInit, at: node, "\(model.name).init \(what); start loading from the view, which can cancel it")
            }
        }
    }

    private func uiTypes(_ model: TypeDeclaration, _ file: SourceFile) -> [Violation] {
        model.node.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier(let name) = token.tokenKind,
                Self.uiNames.contains(name) || Self.uiPrefixes.contains(where: name.hasPrefix)
            else { return nil }
            return file.violation(.viewModelUITypes, at: token, "\(model.name) uses \(name); give values out and let the view format them")
        }
    }
}

/// Finds what starts work in an initializer: `await`, `Task { }`, or a call to one of the type's own methods.
private final class WorkFinder: SyntaxVisitor {
    let methods: Set<String>
    var found: [(Syntax, String)] = []

    init(methods: Set<String>, viewMode: SyntaxTreeViewMode) {
        self.methods = methods
        super.init(viewMode: viewMode)
    }

    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        found.append((Syntax(node), "awaits"))
        return .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression.trimmedDescription
        if callee == "Task" || callee.hasPrefix("Task.") {
            found.append((Syntax(node), "starts a Task"))
            return .skipChildren
        }
        let name = callee.hasPrefix("self.") ? String(callee.dropFirst(5)) : callee
        if methods.contains(name) { found.append((Syntax(node), "calls \(name)()")) }
        return .visitChildren
    }
}
