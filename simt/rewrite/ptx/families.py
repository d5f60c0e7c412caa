"""Les familles d'instructions PTX : importer un module y enregistre ses instructions.

Une ligne par famille ; ajouter une famille, c'est ajouter sa ligne ici.
"""

from . import base  # noqa: F401  mov, setp, selp, bra, cvt, cvta, ld/st, arithmétique entière
from . import ampere  # noqa: F401  mma.sync, ldmatrix, cp.async
from . import wgmma  # noqa: F401  wgmma, setmaxnreg, elect.sync (groupe de warps)
from . import mbarrier  # noqa: F401  mbarrier.init, arrive, expect_tx, complete_tx, test_wait, try_wait
from . import tma  # noqa: F401  cp.async.bulk(.tensor), groupes, fence.proxy.async, prefetch.tensormap
from . import cluster  # noqa: F401  barrier.cluster, mapa, ld/st.shared::cluster, %cluster_*
