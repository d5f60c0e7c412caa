"""Les familles d'instructions PTX : importer un module y enregistre ses instructions.

Une ligne par famille ; ajouter une famille, c'est ajouter sa ligne ici.
"""

from . import base  # noqa: F401  mov, setp, selp, bra, cvt, cvta, ld/st, arithmétique entière
from . import ampere  # noqa: F401  mma.sync, ldmatrix, cp.async
