/// The H.264 level a whole re-encode declares, from the output's picture size and frame
/// rate (ITU-T H.264 table A-1): the lowest level whose frame size (MaxFS, and neither side
/// above sqrt(8 × MaxFS) macroblocks) and macroblock rate (MaxMBPS) hold it. x264 held to
/// that level's bit rate and buffer (its VBV) keeps to it; without them it declared 6.2 for
/// every output (its VBV was the 2 Gbit/s cap), which hardware decoders limited to 5.1 or 5.2
/// refuse.
enum H264LevelFit {
    /// `level_idc`, MaxMBPS (macroblocks a second), MaxFS (macroblocks a frame), lowest first
    /// (level 1b, which only Baseline/Main/Extended can declare, is left out).
    static let table: [(level: Int, macroblocksPerSecond: Int, frameSize: Int)] = [
        (10, 1485, 99), (11, 3000, 396), (12, 6000, 396), (13, 11880, 396),
        (20, 11880, 396), (21, 19800, 792), (22, 20250, 1620),
        (30, 40500, 1620), (31, 108_000, 3600), (32, 216_000, 5120),
        (40, 245_760, 8192), (41, 245_760, 8192), (42, 522_240, 8704),
        (50, 589_824, 22080), (51, 983_040, 36864), (52, 2_073_600, 36864),
        (60, 4_177_920, 139_264), (61, 8_355_840, 139_264), (62, 16_711_680, 139_264),
    ]

    /// The lowest level (`level_idc`) for `width`×`height` pictures at `framesPerSecond`;
    /// nil when the size is unknown or no level holds it.
    static func level(width: Int, height: Int, framesPerSecond: Double) -> Int? {
        guard width > 0, height > 0, framesPerSecond.isFinite, framesPerSecond > 0 else { return nil }
        let across = (width + 15) / 16
        let down = (height + 15) / 16
        let frame = across * down
        let rate = Double(frame) * framesPerSecond
        return table.first { entry in
            let side = Int((Double(entry.frameSize) * 8).squareRoot())
            return frame <= entry.frameSize && across <= side && down <= side
                && rate <= Double(entry.macroblocksPerSecond) * 1.000_001
        }?.level
    }

    /// The level as x264 and people write it ("1.3", "4").
    static func name(_ level: Int) -> String {
        level % 10 == 0 ? "\(level / 10)" : "\(level / 10).\(level % 10)"
    }
}
