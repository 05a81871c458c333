/* Links libtendon_io from an install tree: a missing file must fail cleanly with TDN_ERR_IO. */
#include <stdio.h>
#include <tendon/io/asset.h>

int main(void)
{
    tdn_asset *asset;
    tdn_error err = { 0 };
    tdn_result res = tdn_asset_load("no/such/file.glb", NULL, &asset, NULL, &err);
    printf("io: %s (%s)\n", tdn_result_name(res), err.message);
    return res == TDN_ERR_IO && asset == NULL ? 0 : 1;
}
