#ifndef CTESSERACTSHIM_H
#define CTESSERACTSHIM_H

/// camrec's small C owner of Tesseract's C API (libtesseract 5). libtesseract is loaded at
/// run time, on the first use, not linked: camrec runs where it is not installed, and one
/// that recognises no text does not carry it (nor libgomp, leptonica and their image
/// libraries). The prototypes it calls are declared in tesseract_shim.c, so building camrec
/// needs no Tesseract headers.

/// One recognised word.
typedef struct CamrecTextWord {
    /// Its text, UTF-8 (owned by the array: free the array with camrec_text_words_free).
    char *text;
    /// Its box in the pixels of the picture recognised: left, top, right, bottom (exclusive).
    int left, top, right, bottom;
    /// Tesseract's confidence, 0-100.
    float confidence;
    /// The block and the line it belongs to, counted from 0 in reading order over the
    /// picture (a line's number does not restart in a new block).
    int block, line;
} CamrecTextWord;

/// One Tesseract API instance (TessBaseAPI), initialised with its languages. Not safe to
/// share between threads: one per thread. Free it exactly once with camrec_tesseract_free.
typedef struct CamrecTesseract CamrecTesseract;

/// Whether libtesseract could be loaded: 1, or 0 with `*error` (when not NULL) set to why
/// not, freed by the caller with free(). Loads it on the first call (once), after setting
/// OMP_THREAD_LIMIT=1 unless it is set: Tesseract's OpenMP threads make it several times
/// slower on a small machine, and recognition runs in threads of camrec's own.
/// `CAMREC_TESSERACT_LIBRARY` names another file to load instead of libtesseract.so.5.
int camrec_tesseract_available(char **error);

/// Tesseract's version ("5.3.0"), or NULL when the library cannot be loaded.
const char *camrec_tesseract_version(void);

/// A new instance reading the models of `languages` ("eng", "eng+deu") from `datapath`
/// (NULL: Tesseract's default, TESSDATA_PREFIX or its compiled-in folder), with page
/// segmentation `mode` (Tesseract's PSM: 3 automatic, 11 sparse text) and Sauvola's adaptive
/// thresholding. NULL on failure, with `*error` set (free()).
CamrecTesseract *camrec_tesseract_new(const char *datapath, const char *languages, int mode, char **error);

/// Recognises the words in a grey picture (`stride` bytes per row) of `ppi` pixels per inch
/// (what Tesseract assumes of the text's size; 0: 300). On success 1, with `*words` (NULL when
/// none) and `*count` set: free them with camrec_text_words_free. On failure 0 and `*error`.
int camrec_tesseract_recognize(CamrecTesseract *self, const unsigned char *grey, int width, int height, int stride,
                               int ppi, CamrecTextWord **words, int *count, char **error);

/// Frees the words camrec_tesseract_recognize gave.
void camrec_text_words_free(CamrecTextWord *words, int count);

/// Ends and frees the instance (NULL: nothing).
void camrec_tesseract_free(CamrecTesseract *self);

/// Puts the calling thread (only it) at the lowest CPU priority Linux has: SCHED_IDLE, which
/// runs only when nothing else wants the CPU, and nice 19 should that be refused. Text read
/// while recording runs there. 1 when SCHED_IDLE took, else 0.
int camrec_thread_lowest_priority(void);

#endif
