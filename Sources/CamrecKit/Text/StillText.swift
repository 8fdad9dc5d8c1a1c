import CamrecCore

/// `camrec still --text`: the text of each photo taken, read from the file written, given
/// as a `text` line, in the result (`text`, `text_file`) and in a sidecar NAME.txt beside it.
struct StillText {
    let recognizer: TextRecognizer
    /// Whether an existing sidecar is replaced (`--force`).
    let replace: Bool

    /// Loads libtesseract and the models of `languages` before any camera is opened.
    init(languages: [String], replace: Bool) throws(CamrecError) {
        recognizer = try TextRecognizer(languages: languages, concurrent: true)
        self.replace = replace
    }

    /// `result` with the text of each of its stills; a still whose text cannot be read or
    /// written is reported to `warn` and left as it is (the photo is taken all the same).
    func annotate(_ result: RecordingResult, console: Console, warn: (String) -> Void) -> RecordingResult {
        var result = result
        for index in result.files.indices where result.files[index].kind == "still" && result.files[index].unpublished == nil {
            let path = result.files[index].path
            let sidecar = OutputFile.split(path).0 + ".txt"
            do {
                let text = try TextJob.readStill(path, recognizer, region: nil, minimumConfidence: TextRequest.defaultMinimumConfidence)
                console.emit(text, type: "text")
                try AtomicFile.write(Array((text.text.isEmpty ? "" : text.text + "\n").utf8), to: sidecar, replace: replace)
                result.files[index].text = text.text
                result.files[index].textFile = sidecar
                console.say("camrec: \(path) reads " + (text.text.isEmpty ? "no text" : "\"\(text.text.split(separator: "\n").joined(separator: " / "))\"") + " (\(sidecar))")
            } catch {
                warn("the text of \(path) was not kept: \(error.message)")
            }
        }
        return result
    }
}
