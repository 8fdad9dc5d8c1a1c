import GStreamer
import MP4

/// Mends each movie fragment header (`moof`) mp4mux and qtmux write, as it leaves the
/// muxer, so that a movie cut off by a kill or a power cut reads in any player: GStreamer
/// 1.22 leaves some sound packets' sizes out of them, and ffmpeg then refuses the whole
/// partial movie (``FragmentHeaderRepair`` says when and how). The repaired header is
/// exactly as long as the original, so every offset the muxer counted stays right.
enum FragmentRepair {
    /// Watches `muxer`'s output; nil when it is not an MP4 or QuickTime muxer.
    static func watch(_ muxer: Element) -> ProbeToken? {
        guard ["mp4mux", "qtmux"].contains(muxer.factoryName), let output = try? muxer.staticPad("src") else { return nil }
        return output.addProbe(.buffer) { info in
            guard let view = info.buffer, let bytes = movieFragmentBytes(view),
                  let repaired = FragmentHeaderRepair.repaired(bytes),
                  let buffer = view.retained().edited({ buffer in
                      _ = buffer.withMutableBytes { $0.copyBytes(from: repaired) }
                  })
            else { return .pass }
            return .replace(buffer)
        }
    }

    /// The buffer's bytes when it is one whole `moof` box (the muxer pushes each as one
    /// buffer; a sample's data never starts with its own size and this type).
    private static func movieFragmentBytes(_ view: BufferView) -> [UInt8]? {
        guard view.size >= 16, view.size < 1 << 24 else { return nil }
        return view.withBytes { raw -> [UInt8]? in
            guard raw.count >= 16, raw[4] == 0x6D, raw[5] == 0x6F, raw[6] == 0x6F, raw[7] == 0x66,
                  Int(raw[0]) << 24 | Int(raw[1]) << 16 | Int(raw[2]) << 8 | Int(raw[3]) == raw.count
            else { return nil }
            return Array(raw)
        } ?? nil
    }
}
