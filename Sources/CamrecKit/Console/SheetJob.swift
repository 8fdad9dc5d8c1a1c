/// One `camrec sheet`: makes the sheet and says what it shows (a line for people, or
/// with `--json` a `sheet` line).
public struct SheetJob: Sendable {
    public var request: SheetRequest

    public init(request: SheetRequest) { self.request = request }

    public func run(console: Console) throws(CamrecError) -> ExitStatus {
        let result = try ContactSheet.make(request)
        if console.json {
            console.emit(result, type: "sheet")
        } else {
            let decoded = result.tiles.filter { !$0.keyframe }.count
            console.say("camrec: sheet \(result.path): \(result.tiles.count) frames in \(result.columns)x\(result.rows)"
                        + " (\(result.width)x\(result.height)); \(decoded == 0 ? "keyframes only" : "\(decoded) decoded exactly")")
        }
        return .success
    }
}
