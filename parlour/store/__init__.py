"""The store: what Parlour keeps of its games, behind one interface.

The hub, the routes and the statistics use `Store` and write with `Change`s, plain data
that each backend applies its own way. The modules: `interface` (the Store), `rows` (what
is kept), `changes` (the writes, and `Writes`: how a backend writes each kind), `quota`
(the upload quota, a policy every backend applies), `pictures` (what an uploaded picture
becomes before it is kept), `assembly` (what every backend builds alike of the rows it
reads), and one subpackage per backend: `sqlite` (the embedded default) and `postgres`
(for hosting; it needs the `hosted` extra, so nothing imports it unless asked to). Only
the program's entry point and the tests name a backend.
"""

from parlour.store.changes import (
    Change,
    ForgottenSet,
    ImportKept,
    ImportOpened,
    ProgressSaved,
    Restored,
    SeatingChanged,
    SeriesSaved,
    SessionCreated,
    Together,
    TokenAdded,
    UploadSaved,
    UploadsExpired,
    forgotten_set,
    import_kept,
    import_opened,
    progress_saved,
    seating_changed,
    series_saved,
    session_created,
    together,
    token_added,
    upload_saved,
    uploads_expired,
)
from parlour.store.interface import Fenced, NewerStore, ResultReads, Store
from parlour.store.pictures import (
    MAX_BYTES,
    BadUpload,
    Picture,
    check_brought_picture,
    check_picture,
    content_id,
)
from parlour.store.quota import OverImportQuota, OverQuota
from parlour.store.rows import Identities, KeptSession, Progress, Result, SeriesRow, SessionRow

__all__ = [
    "MAX_BYTES",
    "BadUpload",
    "Change",
    "Fenced",
    "ForgottenSet",
    "Identities",
    "ImportKept",
    "ImportOpened",
    "KeptSession",
    "NewerStore",
    "OverImportQuota",
    "OverQuota",
    "Picture",
    "Progress",
    "ProgressSaved",
    "Restored",
    "Result",
    "ResultReads",
    "SeatingChanged",
    "SeriesRow",
    "SeriesSaved",
    "SessionCreated",
    "SessionRow",
    "Store",
    "Together",
    "TokenAdded",
    "UploadSaved",
    "UploadsExpired",
    "check_brought_picture",
    "check_picture",
    "content_id",
    "forgotten_set",
    "import_kept",
    "import_opened",
    "progress_saved",
    "seating_changed",
    "series_saved",
    "session_created",
    "together",
    "token_added",
    "upload_saved",
    "uploads_expired",
]
