"""The site's one notation: every symbol a page writes, and the terms it uses.

Every page follows this table; the glossary page prints it, and a test checks
that each symbol a page's math uses is listed here. To add a symbol, add a
row here first, then use it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Symbol:
    tex: str  # how the pages write it
    meaning: str  # what it stands for, in words
    anchor: str  # the glossary's anchor for it (glossary.md#anchor)
    base: tuple[str, ...] = ()  # letters or commands it is built from, for the check


@dataclass(frozen=True)
class Term:
    name: str  # as the pages spell it (British)
    anchor: str
    meaning: str
    also: tuple[str, ...] = ()  # other spellings a reader may search for (US)


def _symbol(tex, meaning, anchor, *base):
    return Symbol(tex=tex, meaning=meaning, anchor=anchor, base=base or (tex,))


#: The symbols in the order a reader meets them, each group under the title its part
#: of the glossary's list carries.
_LISTED: tuple[str | Symbol, ...] = (
    "Data",
    _symbol("n", "the number of training rows (people, throws, points)", "n"),
    _symbol("p", "the number of features (columns) of a row", "p"),
    _symbol("i, j", "indices of rows, from the first to the $n$-th; a subscript $-i$ means "
            "with row $i$ left out ($y_{-i}$, $G_{-i}$); in $\\varphi_j$ alone $j$ numbers a "
            "coordinate of the feature map instead", "row-index", "i", "j"),
    _symbol("x_i", "row $i$: one person's, throw's or point's feature values, a vector of "
            "length $p$", "row", "x"),
    _symbol("x, x'", "two rows in general, as the arguments of a kernel", "rows", "x"),
    _symbol(r"x_{\text{h}}, x_{\text{w}}", "a person's height and weight: the two entries of a "
            "row that holds both, written out where a formula needs them apart (in the kernel "
            "ridge pages' own fits the row is the height alone and the weight is the target)",
            "height-weight", "x"),
    _symbol("X", r"the $n \times p$ table of training rows, one row per person, throw or point",
            "table-of-rows"),
    _symbol(r"\bar x", "the mean row: the average of each feature over the training rows",
            "mean-row", r"\bar", "x"),
    _symbol("X_c", r"the centred rows, $X$ with the mean row taken from every row", "centred-rows",
            "X"),
    _symbol(r"\tilde x_i", r"row $i$ centred: $x_i$ minus the mean row", "centred-row",
            r"\tilde", "x"),
    _symbol("y", "the target: one number per training row (a weight, a height)", "target"),
    _symbol(r"\bar y", r"the mean of the target over the training rows; $\bar y_{-i}$ is "
            "the mean without row $i$", "target-mean", r"\bar", "y"),
    _symbol(r"y_c", r"the centred target, $y$ minus its mean", "centred-target", "y"),
    _symbol(r"\hat y", r"a prediction of the target; $\hat y_{-i}$ is the fit made without "
            "row $i$, as leave-one-out uses it", "prediction", r"\hat", "y"),
    _symbol("q", "a query row: a row the model is asked about after fitting", "query"),
    "Kernels",
    _symbol("k(x, x')", "the kernel: a symmetric similarity between two rows; when it meets "
            "Mercer's condition it is the dot product of their lifted images in feature space",
            "kernel", "k"),
    _symbol(r"k_{\text{linear}}, k_{\text{RBF}}", "a kernel named by its family where a page "
            "sets two side by side", "named-kernels", "k"),
    _symbol(r"x^\top x'", "the dot product of two rows", "dot-product", "x"),
    _symbol(r"\varphi(x)", "the feature map: the lifted image of a row, usually never written "
            r"down; $\varphi_j$ is its $j$-th coordinate", "feature-map", r"\varphi"),
    _symbol(r"\Phi", "the lifted training rows, one image per row", "lifted-rows", r"\Phi"),
    _symbol(r"\hat\Phi", "an approximate feature table: one row of Nyström or random "
            "features per row of data, so that $\\hat\\Phi\\hat\\Phi^\\top$ stands in for the "
            "kernel table", "approximate-features", r"\hat", r"\Phi"),
    _symbol(r"\lVert \cdot \rVert", "the Euclidean length of a vector, the square root of the "
            r"sum of its squared entries; $\lVert x - x' \rVert$ is the distance between two "
            "rows", "norm", r"\lVert"),
    _symbol(r"\lVert \cdot \rVert_F", "the Frobenius norm of a table: the square root of the "
            "sum of its squared entries", "frobenius-norm", "F"),
    _symbol("K", r"the kernel table (Gram matrix): the $n \times n$ table of $k(x_i, x_j)$",
            "kernel-table"),
    _symbol("K_{ij}", r"the entry of $K$ in row $i$ and column $j$: $k(x_i, x_j)$; the same for "
            r"any table written $K$ with an accent or subscript", "table-entry", "K"),
    _symbol("K_c", "the centred kernel table: the table of the lifted rows after their mean is "
            r"taken away, $K_c = (I - J)\, K\, (I - J)$", "centred-table", "K"),
    _symbol(r"\bar K_{i\cdot}, \bar K_{\cdot j}, \bar K_{\cdot\cdot}",
            "the averages of row $i$ of $K$, of its column $j$, and of the whole table (a dot "
            "marks the index averaged over)", "table-averages", r"\bar", "K"),
    _symbol(r"\tilde K", "the table kernel ridge solves with: the kernel of the centred rows, "
            r"$k(\tilde x_i, \tilde x_j)$; it equals $K$ for the RBF kernel but not for the "
            r"polynomial ones, and in general it is not $K_c$ (for the linear kernel it is: "
            r"both are $X_c X_c^\top$)",
            "ridge-table", r"\tilde", "K"),
    _symbol("k_q", "a query's row of kernel values against the training rows; in kernel "
            r"ridge, the kernel values of the centred query $q - \bar x$ against the centred "
            "training rows (for the RBF kernel the two are the same)", "query-row", "k"),
    _symbol(r"\bar k_q, (k_q)_c", "the average of a query's row of kernel values, and that row "
            "centred with the training averages", "query-row-average", r"\bar", "k"),
    _symbol(r"\bar\varphi", "the mean of the lifted training rows", "lifted-mean", r"\bar",
            r"\varphi"),
    _symbol("J", r"the averaging matrix, $n \times n$ and filled with $1/n$; $JK$ averages "
            r"the columns of $K$",
            "averaging-matrix"),
    _symbol("I", "the identity matrix", "identity"),
    _symbol(r"\mathbf 1", "the vector (or matrix) of ones", "ones", r"\mathbf"),
    _symbol(r"\gamma", r"the coefficient of the RBF, polynomial and sigmoid kernels, in one "
            "over the squared units of the rows (s⁻² on the throws; cm⁻² in kernel ridge on "
            "the people, whose rows are heights; in kernel PCA on the people, whose distances mix "
            r"centimetres and kilograms, one over their squared mixture); for the RBF it sets "
            r"the rate at which the kernel falls with distance (the larger $\gamma$, the "
            r"faster), and $1/\sqrt\gamma$, a length, is its reach",
            "gamma", r"\gamma"),
    _symbol("d", "the degree of a polynomial kernel", "degree"),
    _symbol("c_0", "the constant a polynomial kernel adds before the power, "
            "and a sigmoid kernel inside its tanh (coef0)", "coef0", "c"),
    _symbol(r"\sigma", "the width of the Gaussian kernel when it is written "
            r"$\exp(-\lVert x - x' \rVert^2 / (2\sigma^2))$, so that "
            r"$\gamma = 1/(2\sigma^2)$", "sigma", r"\sigma"),
    _symbol("e", r"Euler's number, the base of the natural logarithm: $e$ raised to a power is "
            r"$\exp$ of that power; not to be confused with $e_i$, a residual", "euler"),
    "PCA and kernel PCA",
    _symbol("S", r"the $p \times p$ scatter matrix $X_c^\top X_c$ of ordinary PCA",
            "scatter-matrix"),
    _symbol(r"\lambda_m", "the $m$-th largest eigenvalue (raw: of $K_c$, of the scatter matrix, "
            "of kernel ridge's table of the centred rows, or of the table a page names, such as "
            "the uncentred $K$ that opens the Mercer page)", "eigenvalue", r"\lambda"),
    _symbol("m", "the index of a direction (component), largest eigenvalue first",
            "direction-index"),
    _symbol("u_m", r"the unit eigenvector for $\lambda_m$ of the table at hand ($K_c$ in kernel "
            r"PCA; $K$ or $\tilde K$ where a page says so): one entry per training row, $u_{m,i}$ "
            "for row $i$",
            "eigenvector", "u"),
    _symbol(r"\beta_m", r"the coefficient vector of direction $m$: $u_m / \sqrt{\lambda_m}$, one "
            "weight per training row, $\\beta_{m,i}$ for row $i$ (kreport's coefficients_)",
            "coefficients", r"\beta"),
    _symbol("v_m", "direction $m$ in the lifted space: the sum of the centred lifted rows "
            r"weighted by $\beta_m$; in ordinary PCA, a unit direction in the space of the "
            "measured features (the input space)",
            "direction", "v"),
    _symbol("z_{im}", "the coordinate (score) of row $i$ on direction $m$ ($z_{qm}$ for a "
            "query $q$)", "coordinate", "z"),
    _symbol(r"\lambda_m/(n-1)", "the variance along direction $m$ (a sample "
            "variance, over $n - 1$)",
            "variance", r"\lambda"),
    _symbol(r"\ell", "how many directions are kept", "kept", r"\ell"),
    "Regression",
    _symbol(r"\alpha", "the penalty of ridge and kernel ridge regression (scikit-learn's "
            "alpha, kreport's penalty)", "penalty", r"\alpha"),
    _symbol("w_0", "the weight on a column of ones: an intercept penalised like the other weights "
            "(the mistake the ridge page shows)",
            "intercept-weight", "w"),
    _symbol("w", "the primal weights: one per feature (ridge's coef_)", "primal-weights"),
    _symbol("a", "the dual weights: one per training row (kreport's dual_weights_)",
            "dual-weights"),
    _symbol("R^2", "the coefficient of determination: one minus the residual sum of squares over "
            "the total sum of squares about the mean", "r-squared", "R"),
    _symbol("H", r"the hat matrix: the $n \times n$ matrix with $\hat y = H y$ on the "
            "training rows",
            "hat-matrix"),
    _symbol(r"\hat y_c", r"the fitted values of the centred target, $\hat y - \bar y$",
            "fitted-centred",
            r"\hat", "y"),
    _symbol(r"\lambda_{\max}, \lambda_{\min}", "the largest and the smallest eigenvalue of a "
            "table", "extreme-eigenvalues", r"\lambda"),
    _symbol(r"\varepsilon", "the spacing of floating-point numbers near one (numpy's "
            "finfo(float).eps); in a printed matrix, an entry that is zero except for rounding",
            "epsilon", r"\varepsilon"),
    _symbol(r"\mathbb E", "the expected value: the average over the random draws", "expectation",
            r"\mathbb"),
    _symbol(r"e_i", "the residual of row $i$ (leave-one-out: of the fit made without row $i$)",
            "residual", "e"),
    _symbol(r"\kappa", "the condition number of the penalised system being solved "
            r"($\tilde K + \alpha I$ in kernel ridge, $X_c^\top X_c + \alpha I$ in ridge): its "
            "largest over its smallest eigenvalue", "condition-number", r"\kappa"),
    _symbol("G", r"the penalised table of kernel ridge, the table of the centred rows plus "
            r"$\alpha I$; when centring leaves the table unchanged (the RBF kernel; not the "
            "polynomial ones), its inverse gives the leave-one-out residuals in closed form, "
            "from one factorisation", "penalised-table"),
    _symbol(r"\theta", "a free, unpenalised level fitted beside the dual weights (the traps "
            "page's free-intercept fit)", "free-level"),
    "Pre-images",
    _symbol(r"\hat x_i", r"row $i$ rebuilt from $\ell$ coordinates (a reconstruction or a "
            "pre-image)",
            "rebuilt-row", r"\hat", "x"),
    _symbol(r"P\varphi(q)", r"the projection of a lifted query onto the $\ell$ kept directions of "
            "kernel PCA, through the lifted mean", "projection", "P", r"\varphi"),
    _symbol(r"\omega_i", "the weight of training row $i$ when a projected point is written as a "
            "weighted sum of the lifted training rows", "projection-weights", r"\omega"),
    "Approximations",
    _symbol("D", "the number of random features drawn to approximate a kernel",
            "random-feature-count"),
    _symbol("M", "the number of landmarks (Nyström centres): training rows chosen to stand in "
            "for all $n$; at equal cost, $D$ random features play the same part", "landmark-count"),
    _symbol("K_{nM}", r"the $n \times M$ table of kernel values between the training rows and the "
            "landmarks", "rows-by-landmarks", "K"),
    _symbol("K_{MM}", r"the $M \times M$ kernel table of the landmarks among themselves",
            "landmark-table", "K"),
    _symbol("k_M(x)", "the row of $M$ kernel values between $x$ and the landmarks",
            "landmark-row", "k"),
    _symbol(r"\hat\lambda_m", "the $m$-th largest eigenvalue of an approximate (centred) kernel "
            r"table, the estimate of $\lambda_m$", "approximate-eigenvalue", r"\hat", r"\lambda"),
    _symbol("W", r"the $D \times p$ matrix of random frequencies, one row per random feature",
            "random-frequencies"),
    _symbol("b", "the $D$ random phases of random Fourier features", "random-phases"),
    _symbol(r"\hat\varphi(x)", "an approximate feature map (random features, Nyström)",
            "approximate-feature-map", r"\hat", r"\varphi"),
)


def _grouped(listed) -> tuple[tuple[str, tuple[Symbol, ...]], ...]:
    groups: list[tuple[str, list[Symbol]]] = []
    for item in listed:
        if isinstance(item, str):
            groups.append((item, []))
        else:
            groups[-1][1].append(item)
    return tuple((title, tuple(symbols)) for title, symbols in groups)


SYMBOL_GROUPS = _grouped(_LISTED)
SYMBOLS: tuple[Symbol, ...] = tuple(symbol for _, group in SYMBOL_GROUPS for symbol in group)

TERMS: tuple[Term, ...] = (
    Term("centring", "centring", "taking the mean away, so that what remains averages to zero: "
         "rows by their mean row, a kernel table by the mean of the lifted rows", ("centering",)),
    Term("feature map", "feature-map-term", "a function that lifts a row into a space of many "
         "(possibly infinitely many) features; a kernel that meets Mercer's condition is the "
         "dot product there"),
    Term("kernel trick", "kernel-trick", "computing dot products of lifted rows from the kernel "
         "alone, without ever writing the lifted rows down"),
    Term("Gram matrix", "gram-matrix", "the table of dot products between every pair of a set "
         "of vectors: of the rows, of the centred rows ($X_c X_c^\\top$), or of the lifted rows "
         "(a kernel table, $K$ uncentred or $K_c$ centred)"),
    Term("share", "share", "a direction's variance as a fraction of the total variance; in "
         "regression, the share of the target's spread a fit explains is its R²"),
    Term("lifted variance", "lifted-variance", "the variance of the lifted rows about their "
         "mean, direction by direction ($\\lambda_m/(n-1)$) or in total (the sum of the "
         "eigenvalues of $K_c$ over $n - 1$, negative ones counted as zero; for a kernel that "
         "meets Mercer's "
         "condition, the trace of $K_c$ over $n - 1$)"),
    Term("reach", "reach", r"$1/\sqrt\gamma$ for the RBF kernel: about how far apart two rows "
         "can be and still count as similar (their kernel value is e⁻¹ at exactly that distance)"),
    Term("gap, overlap, shift", "gap", "how two groups sit along one axis: the empty stretch "
         "between them, the stretch they share, and how far one must slide to clear the other; "
         "elsewhere, in their everyday senses, a difference between two numbers and a move"),
    Term("tie", "tie", "two (or more) equal eigenvalues: any direction in the plane (or larger "
         "space) they span is as good as any other, so no single direction there is a "
         "property of the data. Said of an eigenvector's entries, equal in size, which the "
         "sign convention must then choose between"),
    Term("Mercer's condition", "mercer", "a kernel meets it when every table it makes is "
         "positive semidefinite (no negative eigenvalue)"),
    Term("positive semidefinite", "positive-semidefinite", "a symmetric table whose "
         "eigenvalues are all zero or positive", ("positive semi-definite",)),
    Term("regularisation", "regularisation", "adding a penalty on the size of the weights, so "
         "that the fit cannot chase every wobble of the training rows", ("regularization",)),
    Term("leave-one-out", "leave-one-out", "scoring a model on each row with a fit made "
         "without that row, so the score is held-out, not a training score"),
    Term("held-out score", "held-out", "a score on rows the fit did not see; it estimates how "
         "the model does on new rows, unlike the training score"),
    Term("training score", "training-score", "a score on the rows the model was fitted to; it "
         "rises as the penalty falls, the other settings fixed (for a kernel that "
         "meets Mercer's condition), so it cannot choose the penalty, and it is no guide to "
         "the other settings either"),
    Term("condition number", "condition-number-term", "how much a linear solve can magnify "
         "relative errors in its inputs"),
    Term("Cholesky factorisation", "cholesky", "writing a symmetric positive definite table "
         "as a lower-triangular table times its own transpose; it exists exactly when "
         r"every pivot is positive, so in exact arithmetic a failed factorisation of "
         r"$\tilde K + \alpha I$ means the table has a negative eigenvalue at least as "
         "large in size as the penalty (a smaller breach of Mercer's condition passes "
         "unnoticed); in floating point a nearly singular table can also fail by rounding",
         ("Cholesky factorization",)),
    Term("pivot", "pivot", "in a Cholesky factorisation, the number under the square root at "
         "each step (its root is what the step divides by); a pivot that is zero or negative "
         "stops the factorisation"),
    Term("pre-image", "pre-image", "a row whose lifted image is (close to) a given point of the "
         "lifted space"),
    Term("normalise", "normalise", "scale to unit length or unit total", ("normalize",)),
    Term("standardise", "standardise", "centre each feature and divide it by its standard "
         "deviation", ("standardize",)),
)

#: What a student may type for a name the pages write another way, where the name
#: is not one of the TERMS: the search index tags each section that uses the name
#: with these (kreport.site.mkdocs_hooks.spelling_tags), so "R2" finds R².
SEARCH_ALIASES: dict[str, tuple[str, ...]] = {
    "R²": ("R2",),
    "Nyström": ("Nystrom",),
    "leave-one-out": ("LOO",),
}
