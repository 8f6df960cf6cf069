"""ssd-opt for PyTorch: train in a fixed memory budget by moving tensors to SSD.

The public entry points are filled in by the package's modules:
``ssdopt.backend`` (the ``torch.compile`` backend "ssd"), ``ssdopt.export``
(a training step as the input IR of ``ssd-opt``) and ``ssdopt.stats``.
"""

import logging

logger = logging.getLogger("ssdopt")
logger.addHandler(logging.NullHandler())
