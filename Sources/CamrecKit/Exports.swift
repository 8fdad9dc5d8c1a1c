// FrameSize, FrameRateValue and ValueError live in MediaValues, below V4L2 and CamrecKit,
// so that both use the same types. They are part of CamrecKit's API (RecordConfig, the
// parsed --size and --fps), and the command-line target imports only CamrecKit and
// ArgumentParsing: re-exporting keeps it that way.
@_exported import MediaValues
// The same for the modules below CamrecKit whose types the command line uses: CamrecCore
// (TimeSpec, CamrecError, ExitStatus, the files), Recover and Trim (their requests and
// results), Stills (the stills' formats and settings, in RecordConfig and the events),
// Library (what `ls`, `sheet` and `export` read and ask), Text (`camrec text`'s request,
// the recognizer and its results), Hooks (`--on-file` and `--on-event`'s settings) and
// Picture (what is done to the picture, in RecordConfig).
// Re-exported here, they are also visible in every file of CamrecKit.
@_exported import CamrecCore
@_exported import Recover
@_exported import Trim
@_exported import Stills
@_exported import Library
@_exported import Text
@_exported import Hooks
@_exported import Picture
