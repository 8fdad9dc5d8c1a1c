#include "CTesseractShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tesseract's C API (tesseract/capi.h, stable across 4.x and 5.x), declared here so that
 * building camrec needs no libtesseract-dev: the few types are opaque, BOOL is int, the
 * enums are ints (TessPageIteratorLevel: 0 block, 2 text line, 3 word). */
typedef struct TessBaseAPI TessBaseAPI;
typedef struct TessResultIterator TessResultIterator;
typedef struct TessPageIterator TessPageIterator;
enum { RIL_BLOCK = 0, RIL_TEXTLINE = 2, RIL_WORD = 3 };

#define CAMREC_TESS_FUNCTIONS(X)                                                                                \
    X(const char *, TessVersion, (void))                                                                       \
    X(TessBaseAPI *, TessBaseAPICreate, (void))                                                                \
    X(void, TessBaseAPIDelete, (TessBaseAPI *))                                                                \
    X(void, TessBaseAPIEnd, (TessBaseAPI *))                                                                   \
    X(void, TessBaseAPIClear, (TessBaseAPI *))                                                                 \
    X(int, TessBaseAPIInit3, (TessBaseAPI *, const char *, const char *))                                      \
    X(int, TessBaseAPISetVariable, (TessBaseAPI *, const char *, const char *))                                \
    X(void, TessBaseAPISetPageSegMode, (TessBaseAPI *, int))                                                   \
    X(void, TessBaseAPISetImage, (TessBaseAPI *, const unsigned char *, int, int, int, int))                   \
    X(void, TessBaseAPISetSourceResolution, (TessBaseAPI *, int))                                              \
    X(int, TessBaseAPIRecognize, (TessBaseAPI *, void *))                                                      \
    X(TessResultIterator *, TessBaseAPIGetIterator, (TessBaseAPI *))                                           \
    X(void, TessResultIteratorDelete, (TessResultIterator *))                                                  \
    X(TessPageIterator *, TessResultIteratorGetPageIterator, (TessResultIterator *))                           \
    X(char *, TessResultIteratorGetUTF8Text, (const TessResultIterator *, int))                                \
    X(float, TessResultIteratorConfidence, (const TessResultIterator *, int))                                  \
    X(int, TessResultIteratorNext, (TessResultIterator *, int))                                                \
    X(int, TessPageIteratorBoundingBox, (const TessPageIterator *, int, int *, int *, int *, int *))           \
    X(int, TessPageIteratorIsAtBeginningOf, (const TessPageIterator *, int))                                   \
    X(void, TessDeleteText, (const char *))

static struct {
#define CAMREC_TESS_SLOT(result, name, arguments) result(*name) arguments;
    CAMREC_TESS_FUNCTIONS(CAMREC_TESS_SLOT)
#undef CAMREC_TESS_SLOT
} tess;

/* Why the library could not be loaded, or NULL once it is (set once, then read only). */
static char *load_failure;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static char *copy_message(const char *format, const char *a, const char *b) {
    size_t size = strlen(format) + (a ? strlen(a) : 0) + (b ? strlen(b) : 0) + 1;
    char *text = malloc(size);
    if (text) snprintf(text, size, format, a ? a : "", b ? b : "");
    return text;
}

static void load_library(void) {
    /* libgomp (which libtesseract brings) reads its settings when it is loaded, right below:
       a user's own OMP_THREAD_LIMIT wins. */
    setenv("OMP_THREAD_LIMIT", "1", 0);
    const char *name = getenv("CAMREC_TESSERACT_LIBRARY");
    if (!name || !*name) name = "libtesseract.so.5";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        load_failure = copy_message("%s%s", why ? why : name, why ? "" : ": cannot be loaded");
        return;
    }
#define CAMREC_TESS_LOOKUP(result, fn, arguments)                                                               \
    if (!load_failure && !(*(void **)&tess.fn = dlsym(library, #fn)))                                          \
        load_failure = copy_message("%s has no %s", name, #fn);
    CAMREC_TESS_FUNCTIONS(CAMREC_TESS_LOOKUP)
#undef CAMREC_TESS_LOOKUP
}

int camrec_tesseract_available(char **error) {
    pthread_once(&load_once, load_library);
    if (load_failure && error) *error = strdup(load_failure);
    return load_failure == NULL;
}

const char *camrec_tesseract_version(void) {
    return camrec_tesseract_available(NULL) ? tess.TessVersion() : NULL;
}

struct CamrecTesseract {
    TessBaseAPI *api;
};

CamrecTesseract *camrec_tesseract_new(const char *datapath, const char *languages, int mode, char **error) {
    if (!camrec_tesseract_available(error)) return NULL;
    TessBaseAPI *api = tess.TessBaseAPICreate();
    if (!api) {
        if (error) *error = strdup("Tesseract could not make an instance");
        return NULL;
    }
    /* Tesseract's warnings ("Empty page!!", "Estimating resolution") are not camrec's to print. */
    tess.TessBaseAPISetVariable(api, "debug_file", "/dev/null");
    if (tess.TessBaseAPIInit3(api, datapath, languages) != 0) {
        tess.TessBaseAPIDelete(api);
        if (error) *error = copy_message("Tesseract cannot load the models of %s%s", languages, "");
        return NULL;
    }
    tess.TessBaseAPISetVariable(api, "debug_file", "/dev/null");
    /* Sauvola's adaptive thresholding (Tesseract 5: 0 Otsu, 1 LeptonicaOtsu, 2 Sauvola): a camera's
       uneven light, shadows and gradients do not swallow the letters as one global threshold does. */
    tess.TessBaseAPISetVariable(api, "thresholding_method", "2");
    tess.TessBaseAPISetPageSegMode(api, mode);
    CamrecTesseract *self = calloc(1, sizeof *self);
    if (!self) {
        tess.TessBaseAPIEnd(api);
        tess.TessBaseAPIDelete(api);
        if (error) *error = strdup("no memory for Tesseract");
        return NULL;
    }
    self->api = api;
    return self;
}

int camrec_tesseract_recognize(CamrecTesseract *self, const unsigned char *grey, int width, int height, int stride,
                               int ppi, CamrecTextWord **words, int *count, char **error) {
    *words = NULL;
    *count = 0;
    TessBaseAPI *api = self->api;
    tess.TessBaseAPISetImage(api, grey, width, height, 1, stride);
    tess.TessBaseAPISetSourceResolution(api, ppi > 0 ? ppi : 300);
    if (tess.TessBaseAPIRecognize(api, NULL) != 0) {
        tess.TessBaseAPIClear(api);
        if (error) *error = strdup("Tesseract could not recognise the picture");
        return 0;
    }
    TessResultIterator *iterator = tess.TessBaseAPIGetIterator(api);
    if (!iterator) {
        tess.TessBaseAPIClear(api);
        return 1;
    }
    /* The page iterator is the result iterator seen as its base class: not freed apart. */
    const TessPageIterator *page = tess.TessResultIteratorGetPageIterator(iterator);
    int capacity = 0, used = 0, block = -1, line = -1, ok = 1;
    CamrecTextWord *list = NULL;
    do {
        if (tess.TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK)) block++;
        if (tess.TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE)) line++;
        char *text = tess.TessResultIteratorGetUTF8Text(iterator, RIL_WORD);
        if (!text) continue;
        CamrecTextWord word = {0};
        if (!*text || !tess.TessPageIteratorBoundingBox(page, RIL_WORD, &word.left, &word.top, &word.right, &word.bottom)) {
            tess.TessDeleteText(text);
            continue;
        }
        word.text = strdup(text);
        tess.TessDeleteText(text);
        word.confidence = tess.TessResultIteratorConfidence(iterator, RIL_WORD);
        word.block = block < 0 ? 0 : block;
        word.line = line < 0 ? 0 : line;
        if (used == capacity) {
            int grown = capacity ? capacity * 2 : 32;
            CamrecTextWord *bigger = realloc(list, (size_t)grown * sizeof *list);
            if (!bigger || !word.text) {
                free(word.text);
                ok = 0;
                break;
            }
            list = bigger;
            capacity = grown;
        }
        list[used++] = word;
    } while (tess.TessResultIteratorNext(iterator, RIL_WORD));
    tess.TessResultIteratorDelete(iterator);
    tess.TessBaseAPIClear(api);
    if (!ok) {
        camrec_text_words_free(list, used);
        if (error) *error = strdup("no memory for the recognised words");
        return 0;
    }
    *words = list;
    *count = used;
    return 1;
}

void camrec_text_words_free(CamrecTextWord *words, int count) {
    if (!words) return;
    for (int i = 0; i < count; i++) free(words[i].text);
    free(words);
}

void camrec_tesseract_free(CamrecTesseract *self) {
    if (!self) return;
    tess.TessBaseAPIEnd(self->api);
    tess.TessBaseAPIDelete(self->api);
    free(self);
}
