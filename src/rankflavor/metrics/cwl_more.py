"""cwl_eval's other user models (C/W/L: metrics/cwl.py has the machinery and reference/cwl.py the formulas), each
doc of cost 1 (cwl_eval without a cost file), so that time and length are ranks:

    cwl_npv(rate)      C(i) = 1 / (1 + rate)                                 cwl_npv.py (NPVCWLMetric)
    cwl_set@k(beta)    C(i) = w(i + 1) / w(i) for i < k, w(i) = (i+1)^beta - i^beta   cwl_set.py (SETCWLMetric)
    cwl_tbg(halflife)  C(i) = 2^(-1/halflife) for i < D, 0 at D              cwl_tbg.py (TBGCWLMetric)
    cwl_umeasure(L)    C(i) = u(i + 1) / u(i), u(i) = max(0, 1 - (i-1)/L) for i < D, u(D) = 0   cwl_umeasure.py
"""

from __future__ import annotations

from functools import partial

import numpy as np

from rankflavor.flavor.values import Param, number_parser
from rankflavor.metrics.cwl import COMMON, CutoffCWL, CWLMetric
from rankflavor.reference import cwl as reference
from rankflavor.registry import register


class CWLNetPresentValue(CWLMetric):
    """cwl_npv: C(i) = 1 / (1 + rate) (RBP with theta = 1 / (1 + rate); cwl_npv.py)"""

    name, measure = "cwl_npv", partial(reference.measure, "npv")
    parameters = (Param("rate", "0.1", number_parser("rate", 0.0, 1e6), "how much the user discounts each next doc "
                        "(cwl_eval NPVCWLMetric: 0.1)", ("0.1", "0.5")), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        return np.full(g.shape, 1.0 / (1.0 + flavor.param("rate").number))


class CWLSearchEconomic(CutoffCWL):
    """cwl_set@k: C(i) = w(i+1) / w(i) for i < k, else 0, w(i) = (i+1)^beta - i^beta (SET; cwl_set.py)

    Azzopardi, 'Modelling Interaction with Economic Models of Search', SIGIR 2014."""

    name, measure = "cwl_set", partial(reference.measure, "set")
    parameters = (Param("beta", "0.5", number_parser("beta", 0.0, 1.0, low_open=True), "the diminishing returns of "
                        "each next doc (cwl_eval SETCWLMetric: 0.5)", ("0.5", "1")), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        beta = flavor.param("beta").number
        step = np.power(ranks + 2, beta) - np.power(ranks + 1, beta)
        return np.broadcast_to(np.where(self.before_k(ranks, flavor),
                                        step / (np.power(ranks + 1, beta) - np.power(ranks, beta)), 0.0), g.shape)


class CWLTimeBiased(CWLMetric):
    """cwl_tbg: C(i) = 2^(-1/halflife) for i < D, 0 at D (TBG with each doc taking 1; cwl_tbg.py)

    Smucker & Clarke, 'Time-Based Calibration of Effectiveness Measures', SIGIR 2012."""

    name, measure = "cwl_tbg", partial(reference.measure, "tbg")
    parameters = (Param("halflife", "224", number_parser("halflife", 0.0, 1e9, low_open=True), "the cost (docs) "
                        "after which half the users have stopped (cwl_eval TBGCWLMetric: 224)", ("224", "5")), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        c = np.full(g.shape, 2.0 ** (-1.0 / flavor.param("halflife").number))
        c[:, -1] = 0.0
        return c


class CWLUMeasure(CWLMetric):
    """cwl_umeasure: C(i) = u(i+1) / u(i), u(i) = max(0, 1 - (i-1)/L) for i < D, u(D) = 0 (U-measure; cwl_umeasure.py)

    Sakai & Dou, 'Summaries, Ranked Retrieval and Sessions: A Unified Framework', SIGIR 2013."""

    name, measure = "cwl_umeasure", partial(reference.measure, "umeasure")
    parameters = (Param("L", "1000", number_parser("L", 0.0, 1e9, low_open=True), "the cost (docs) at which the "
                        "user's attention runs out (cwl_eval UMeasureCWLMetric: 1000)", ("1000", "5")), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        u = np.maximum(0.0, 1.0 - (ranks - 1) / flavor.param("L").number)
        u[-1] = 0.0
        with np.errstate(invalid="ignore", divide="ignore"):
            c = np.where(u > 0, np.r_[u[1:], 0.0] / np.where(u > 0, u, 1.0), 0.0)
        return np.broadcast_to(c, g.shape)


register(CWLNetPresentValue(), peers={"cwl_eval": ("NPVCWLMetric({rate})", "NPV-r@{rate}")})
register(CWLSearchEconomic(), peers={"cwl_eval": ("SETCWLMetric({beta},{k})", "SET-k@{k}-b@{beta}")})
register(CWLTimeBiased(), peers={"cwl_eval": ("TBGCWLMetric({halflife})", "TBG-H@{halflife}")})
register(CWLUMeasure(), peers={"cwl_eval": ("UMeasureCWLMetric({L})", "U-L@{L}")})
